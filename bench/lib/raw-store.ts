/**
 * The raw baselines of the graph and jobs suites: the store operations that a records write, a
 * records query and an import make, written directly with `@aws-sdk/lib-dynamodb` commands
 * against a dynalite, with nothing of the application around them. The items are the
 * application's own (`toRecordItem`), so they have the same size and shape.
 */
import { BatchGetCommand, BatchWriteCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { RECORD_SHARDS, recordPartition, type RecordItem } from '../../functions/core/graph/records/record-item';
import type { Key } from '../../functions/ports/store';

const shardHex = (shard: number) => shard.toString(16).padStart(2, '0');

/**
 * The partition of an equality index entry, as `record-store.ts` writes it (a private function
 * there; the suites check that the raw and the application reads find the same records).
 */
export function indexPartition(customerCode: string, collectionCode: string, field: string, value: string, shard: number): string {
  return `IDX#${customerCode}#${collectionCode}#${field}#s:${value}#${shardHex(shard)}`;
}

/** Runs `tasks` with at most `limit` in flight. */
async function inFlight<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * What one `POST .../records` call does in the store for a batch of records (no indexed
 * fields): one BatchGetItem of the batch's keys (consistent), then one PutItem per record,
 * 16 in flight (RecordService's WRITE_CONCURRENCY), conditional as the DynamoDB adapter makes
 * it: `attribute_not_exists(pk)` for a create, `version = :previous` for an update, with
 * `ReturnValues: ALL_OLD`. Answers how many of the keys existed before.
 */
export async function rawRecordsWrite(client: DynamoDBDocumentClient, table: string, batch: RecordItem[], now: number): Promise<number> {
  const keys: Key[] = batch.map((item) => ({ pk: item.pk, sk: item.sk }));
  const got = await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: keys, ConsistentRead: true } } }));
  if ((got.UnprocessedKeys?.[table]?.Keys?.length ?? 0) > 0) throw new Error('raw BatchGetItem left keys unprocessed');
  const found = new Map((got.Responses?.[table] ?? []).map((item) => [String(item.sk) + '\u0000' + String(item.pk), item as RecordItem]));
  await inFlight(batch, 16, async (item) => {
    const previous = found.get(item.sk + '\u0000' + item.pk);
    if (!previous) {
      await client.send(
        new PutCommand({
          TableName: table,
          Item: item,
          ReturnValues: 'ALL_OLD',
          ConditionExpression: 'attribute_not_exists(#pk)',
          ExpressionAttributeNames: { '#pk': 'pk' },
        }),
      );
      return;
    }
    const record = { ...item.record, '@iat': previous.record['@iat'], '@uat': Math.max(now, previous.record['@uat'] + 1) };
    await client.send(
      new PutCommand({
        TableName: table,
        Item: { ...item, record, version: previous.version + 1 },
        ReturnValues: 'ALL_OLD',
        ConditionExpression: '#f = :v',
        ExpressionAttributeNames: { '#f': 'version' },
        ExpressionAttributeValues: { ':v': previous.version },
      }),
    );
  });
  return found.size;
}

/** BatchWriteItem of `items`, 25 puts a call, `concurrency` calls in flight (the adapter's BATCH_WRITE_CONCURRENCY is 4). */
export async function rawBatchWrite(client: DynamoDBDocumentClient, table: string, items: Record<string, unknown>[], concurrency = 4): Promise<void> {
  const chunks: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
  await inFlight(chunks, concurrency, async (chunk) => {
    let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt === 8) throw new Error('raw BatchWriteItem left items unprocessed after 8 attempts');
      const out = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (out.UnprocessedItems?.[table] ?? []) as typeof pending;
    }
  });
}

/** Every item of one partition, page by page (`pageSize` undefined: DynamoDB's 1 MB pages). */
async function queryAll(client: DynamoDBDocumentClient, table: string, pk: string, pageSize: number | undefined, onItems: (items: Record<string, unknown>[]) => void): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const out = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'pk' },
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ...(pageSize ? { Limit: pageSize } : {}),
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    onItems(out.Items ?? []);
    startKey = out.LastEvaluatedKey;
  } while (startKey);
}

/**
 * The store operations of an indexed `$eq` query: the 16 index partitions of the value read in
 * parallel (paged Queries), then BatchGetItem of the matches' record keys, 100 keys a call, all
 * calls in parallel (as `RecordStore.idsByIndex` and `getMany` do). Answers the records found.
 */
export async function rawIndexedQuery(client: DynamoDBDocumentClient, table: string, customerCode: string, collectionCode: string, field: string, value: string): Promise<Record<string, unknown>[]> {
  const perShard = await Promise.all(
    Array.from({ length: RECORD_SHARDS }, async (_, shard) => {
      const keys: Key[] = [];
      await queryAll(client, table, indexPartition(customerCode, collectionCode, field, value, shard), undefined, (items) => {
        for (const item of items) keys.push({ pk: recordPartition(customerCode, collectionCode, shard), sk: `R#${String(item.sk)}` });
      });
      return keys;
    }),
  );
  const keys = perShard.flat();
  const chunks: Key[][] = [];
  for (let i = 0; i < keys.length; i += 100) chunks.push(keys.slice(i, i + 100));
  const pages = await Promise.all(
    chunks.map(async (chunk) => {
      const out = await client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: chunk, ConsistentRead: true } } }));
      if ((out.UnprocessedKeys?.[table]?.Keys?.length ?? 0) > 0) throw new Error('raw BatchGetItem left keys unprocessed');
      return out.Responses?.[table] ?? [];
    }),
  );
  return pages.flat();
}

/**
 * The store operations of a non-indexed query: all 16 record partitions of the collection read
 * in parallel, each with paged Queries of `pageSize` (RecordStore.readAll's 500). Answers how
 * many items were read and how many match `predicate`.
 */
export async function rawScan(
  client: DynamoDBDocumentClient,
  table: string,
  customerCode: string,
  collectionCode: string,
  predicate: (record: Record<string, unknown>) => boolean,
  pageSize = 500,
): Promise<{ read: number; matched: number }> {
  let read = 0;
  let matched = 0;
  await Promise.all(
    Array.from({ length: RECORD_SHARDS }, (_, shard) =>
      queryAll(client, table, recordPartition(customerCode, collectionCode, shard), pageSize, (items) => {
        read += items.length;
        for (const item of items) if (predicate(item.record as Record<string, unknown>)) matched++;
      }),
    ),
  );
  return { read, matched };
}
