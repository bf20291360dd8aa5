import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbStore, type BatchRetryOptions } from '../../functions/adapters/aws/dynamodb-store';
import { startLocalDynamo } from '../../functions/adapters/local/local-dynamo';

export interface LocalDynamoFixture {
  store: DynamoDbStore;
  client: DynamoDBDocumentClient;
  tableName: string;
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * An in-memory dynalite with a fresh, uniquely named table and the real DynamoDB adapter
 * over it. Start one per test file (beforeAll) and stop it in afterAll:
 *
 *   let dynamo: LocalDynamoFixture;
 *   beforeAll(async () => { dynamo = await withLocalDynamo(); });
 *   afterAll(() => dynamo.stop());
 */
export async function withLocalDynamo(options: { batchRetry?: BatchRetryOptions } = {}): Promise<LocalDynamoFixture> {
  const tableName = `test-${randomUUID()}`;
  const local = await startLocalDynamo({ tableName });
  const store = new DynamoDbStore({ tableName, client: local.client, batchRetry: options.batchRetry });
  return { store, client: local.client, tableName, endpoint: local.endpoint, stop: local.stop };
}
