import type { Deps } from '../../deps';
import { randomIds, systemClock } from '../../ports/clock';
import { UndiciHttpClient } from '../http/undici-http-client';
import { DynamoDbStore } from './dynamodb-store';

let deps: Deps | undefined;

/**
 * The Lambda host's dependencies, built on the first call and reused by every later call
 * (and so every warm invocation). Call it at module scope of a Lambda entry so that a
 * missing setting fails the cold start, not the first request.
 */
export function depsFromEnv(): Deps {
  if (deps) return deps;
  const tableName = process.env.TABLE_NAME?.trim();
  if (!tableName) {
    throw new Error(
      'TABLE_NAME is not set: the Lambda function needs the name of the DynamoDB table in its environment ' +
        '(the CDK stack sets it; locally, use the local host instead of depsFromEnv)',
    );
  }
  deps = {
    store: new DynamoDbStore({ tableName }),
    clock: systemClock,
    ids: randomIds,
    httpClient: new UndiciHttpClient(),
  };
  return deps;
}
