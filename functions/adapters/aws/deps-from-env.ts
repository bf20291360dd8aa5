import type { Deps } from '../../deps';
import { randomIds, systemClock } from '../../ports/clock';
import { UndiciHttpClient } from '../http/undici-http-client';
import { DynamoDbStore } from './dynamodb-store';
import { EventBridgeBus } from './eventbridge-bus';
import { S3BlobStore } from './s3-blob-store';

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
  const eventBusName = process.env.EVENT_BUS_NAME?.trim();
  if (!eventBusName) {
    throw new Error(
      'EVENT_BUS_NAME is not set: the Lambda function needs the name of the EventBridge bus of the data graph events ' +
        'in its environment (the CDK stack sets it; locally, use the local host instead of depsFromEnv)',
    );
  }
  const filesBucket = process.env.FILES_BUCKET?.trim();
  if (!filesBucket) {
    throw new Error(
      'FILES_BUCKET is not set: the Lambda function needs the name of the S3 bucket of the data graph files ' +
        'in its environment (the CDK stack sets it; locally, use the local host instead of depsFromEnv)',
    );
  }
  deps = {
    store: new DynamoDbStore({ tableName }),
    blobStore: new S3BlobStore({ bucketName: filesBucket }),
    eventBus: new EventBridgeBus({ busName: eventBusName }),
    clock: systemClock,
    ids: randomIds,
    httpClient: new UndiciHttpClient(),
  };
  return deps;
}
