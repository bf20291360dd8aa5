import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type BatchWriteCommandInput,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import {
  ConditionFailedError,
  type Item,
  type Key,
  type QueryOptions,
  type QueryPage,
  type Store,
  type WriteCondition,
} from '../../ports/store';
import { documentClient } from './clients';
import { PARTITION_KEY, SORT_KEY } from './table';

/** DynamoDB's hard item limit is 400 KB; we refuse items whose JSON is larger than this. */
export const MAX_ITEM_JSON_BYTES = 390 * 1024;
/** Requests per BatchWriteItem call (DynamoDB's limit). */
export const BATCH_WRITE_CHUNK = 25;
/** Keys per BatchGetItem call (DynamoDB's limit). */
export const BATCH_GET_CHUNK = 100;
/** BatchWriteItem calls in flight at once within one `batchWrite`. */
export const BATCH_WRITE_CONCURRENCY = 4;

/** A query cursor that this adapter did not issue (or issued for another partition). */
export class InvalidCursorError extends Error {
  readonly isInvalidCursor = true;
  constructor(message = 'The cursor is not valid') {
    super(message);
    this.name = 'InvalidCursorError';
  }
}

/** An item too large for DynamoDB (400 KB per item). */
export class ItemTooLargeError extends Error {
  readonly isItemTooLarge = true;
  constructor(
    readonly key: Partial<Key>,
    readonly bytes: number | undefined,
    readonly limitBytes: number = MAX_ITEM_JSON_BYTES,
  ) {
    super(
      `Item pk=${JSON.stringify(key.pk)} sk=${JSON.stringify(key.sk)} is too large for DynamoDB` +
        (bytes === undefined ? '' : ` (${bytes} bytes as JSON, limit ${limitBytes})`) +
        '; items are limited to 400 KB: store large values in a blob and keep a reference',
    );
    this.name = 'ItemTooLargeError';
  }
}

/** Some batch-write requests stayed unprocessed after every retry. */
export class UnprocessedItemsError extends Error {
  constructor(readonly unprocessed: number, readonly attempts: number) {
    super(`BatchWriteItem left ${unprocessed} request(s) unprocessed after ${attempts} attempts`);
    this.name = 'UnprocessedItemsError';
  }
}

export interface BatchRetryOptions {
  /** Total BatchWriteItem calls per chunk, the first included (default 8). */
  maxAttempts?: number;
  /** First backoff in ms, doubled each retry, full jitter (default 50). */
  baseDelayMs?: number;
  /** Backoff ceiling in ms (default 5000). */
  maxDelayMs?: number;
}

export interface DynamoDbStoreOptions {
  tableName: string;
  client?: DynamoDBDocumentClient;
  /** Tuning of the UnprocessedItems retry (tests shorten it). */
  batchRetry?: BatchRetryOptions;
}

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

interface ConditionParts {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

/** The Store port over one DynamoDB table (also run locally against dynalite). */
export class DynamoDbStore implements Store {
  readonly tableName: string;
  private readonly client: DynamoDBDocumentClient;
  private readonly retry: Required<BatchRetryOptions>;

  constructor(options: DynamoDbStoreOptions) {
    if (!options.tableName) throw new TypeError('DynamoDbStore needs a tableName');
    this.tableName = options.tableName;
    this.client = options.client ?? documentClient;
    this.retry = {
      maxAttempts: options.batchRetry?.maxAttempts ?? 8,
      baseDelayMs: options.batchRetry?.baseDelayMs ?? 50,
      maxDelayMs: options.batchRetry?.maxDelayMs ?? 5000,
    };
  }

  async get(key: Key): Promise<Item | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: keyOf(key), ConsistentRead: true }),
    );
    return out.Item;
  }

  async put(item: Item & Key, condition?: WriteCondition): Promise<Item | undefined> {
    const key = keyOf(item);
    checkSize(item, key);
    const out = await this.write(
      () =>
        this.client.send(
          new PutCommand({
            TableName: this.tableName,
            Item: item,
            ReturnValues: 'ALL_OLD',
            ...conditionParts(condition),
          }),
        ),
      key,
    );
    return out.Attributes;
  }

  async delete(key: Key, condition?: WriteCondition): Promise<Item | undefined> {
    const k = keyOf(key);
    const out = await this.write(
      () =>
        this.client.send(
          new DeleteCommand({
            TableName: this.tableName,
            Key: k,
            ReturnValues: 'ALL_OLD',
            ...conditionParts(condition),
          }),
        ),
      k,
    );
    return out.Attributes;
  }

  async query(pk: string, options: QueryOptions = {}): Promise<QueryPage> {
    checkKeyPart('pk', pk);
    const { prefix, limit, cursor, descending, startAfter } = options;
    if (cursor !== undefined && startAfter !== undefined) throw new TypeError('query takes a cursor or startAfter, not both');
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new RangeError(`query limit must be a positive integer, got ${String(limit)}`);
    }
    const withPrefix = prefix !== undefined && prefix !== '';
    const out = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: withPrefix ? '#pk = :pk AND begins_with(#sk, :prefix)' : '#pk = :pk',
        ExpressionAttributeNames: withPrefix ? { '#pk': PARTITION_KEY, '#sk': SORT_KEY } : { '#pk': PARTITION_KEY },
        ExpressionAttributeValues: withPrefix ? { ':pk': pk, ':prefix': prefix } : { ':pk': pk },
        ConsistentRead: true,
        ...(limit !== undefined ? { Limit: limit } : {}),
        ...(descending ? { ScanIndexForward: false } : {}),
        ...(cursor !== undefined ? { ExclusiveStartKey: decodeCursor(cursor, pk, withPrefix ? prefix : undefined) } : {}),
        ...(startAfter !== undefined ? { ExclusiveStartKey: { [PARTITION_KEY]: pk, [SORT_KEY]: startAfter } } : {}),
      }),
    );
    const page: QueryPage = { items: out.Items ?? [] };
    if (out.LastEvaluatedKey) page.cursor = encodeCursor(out.LastEvaluatedKey);
    return page;
  }

  async increment(key: Key, field: string, by = 1): Promise<number> {
    const k = keyOf(key);
    if (field === PARTITION_KEY || field === SORT_KEY || !field) {
      throw new TypeError(`cannot increment the field ${JSON.stringify(field)}`);
    }
    if (!Number.isFinite(by)) throw new RangeError(`increment by must be a finite number, got ${by}`);
    const out = await this.write(
      () =>
        this.client.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: k,
            UpdateExpression: 'ADD #f :by',
            ExpressionAttributeNames: { '#f': field },
            ExpressionAttributeValues: { ':by': by },
            ReturnValues: 'UPDATED_NEW',
          }),
        ),
      k,
    );
    const value = out.Attributes?.[field];
    if (typeof value !== 'number') {
      throw new Error(`increment of ${field} did not return a number (got ${typeof value})`);
    }
    return value;
  }

  async batchGet(keys: Key[]): Promise<Item[]> {
    const unique = [...new Map(keys.map((k) => [keyId(keyOf(k)), keyOf(k)])).values()];
    const chunks: Key[][] = [];
    for (let i = 0; i < unique.length; i += BATCH_GET_CHUNK) chunks.push(unique.slice(i, i + BATCH_GET_CHUNK));
    const pages = await Promise.all(chunks.map((chunk) => this.getChunk(chunk)));
    return pages.flat();
  }

  private async getChunk(chunk: Key[]): Promise<Item[]> {
    const found: Item[] = [];
    let pending: Key[] = chunk;
    for (let attempt = 1; ; attempt++) {
      const out = await this.client.send(
        new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      found.push(...((out.Responses?.[this.tableName] ?? []) as Item[]));
      const left = (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Key[];
      if (left.length === 0) return found;
      if (attempt >= this.retry.maxAttempts) throw new UnprocessedItemsError(left.length, attempt);
      pending = left;
      const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.random() * ceiling);
    }
  }

  async batchWrite(puts: (Item & Key)[], deletes: Key[]): Promise<void> {
    // One request per key: DynamoDB rejects a batch naming a key twice, and chunks run in
    // parallel, so a repeated key would have no defined order anyway. Last put wins.
    const requests = new Map<string, WriteRequest>();
    for (const item of puts) {
      const key = keyOf(item);
      checkSize(item, key);
      requests.set(keyId(key), { PutRequest: { Item: item } });
    }
    for (const key of deletes) {
      const k = keyOf(key);
      const id = keyId(k);
      if (requests.get(id)?.PutRequest) {
        throw new TypeError(`batchWrite: key pk=${JSON.stringify(k.pk)} sk=${JSON.stringify(k.sk)} is both put and deleted`);
      }
      requests.set(id, { DeleteRequest: { Key: k } });
    }
    const all = [...requests.values()];
    const chunks: WriteRequest[][] = [];
    for (let i = 0; i < all.length; i += BATCH_WRITE_CHUNK) chunks.push(all.slice(i, i + BATCH_WRITE_CHUNK));

    let next = 0;
    let failed = false;
    const worker = async (): Promise<void> => {
      while (!failed && next < chunks.length) {
        const chunk = chunks[next++]!;
        try {
          await this.writeChunk(chunk);
        } catch (err) {
          failed = true;
          throw err;
        }
      }
    };
    const workers = Array.from({ length: Math.min(BATCH_WRITE_CONCURRENCY, chunks.length) }, worker);
    const results = await Promise.allSettled(workers);
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (rejected) throw rejected.reason;
  }

  private async writeChunk(chunk: WriteRequest[]): Promise<void> {
    let pending = chunk;
    for (let attempt = 1; ; attempt++) {
      const out = await this.write(
        () => this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } })),
        undefined,
      );
      const left = out.UnprocessedItems?.[this.tableName] ?? [];
      if (left.length === 0) return;
      if (attempt >= this.retry.maxAttempts) throw new UnprocessedItemsError(left.length, attempt);
      pending = left;
      const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.random() * ceiling);
    }
  }

  /** Runs one write, mapping DynamoDB's errors to the port's. */
  private async write<T>(send: () => Promise<T>, key: Partial<Key> | undefined): Promise<T> {
    try {
      return await send();
    } catch (err) {
      const name = (err as { name?: string } | null)?.name;
      const message = (err as { message?: string } | null)?.message ?? '';
      if (name === 'ConditionalCheckFailedException') {
        throw new ConditionFailedError(
          key ? `The write condition did not hold for pk=${JSON.stringify(key.pk)} sk=${JSON.stringify(key.sk)}` : undefined,
        );
      }
      if (name === 'ValidationException' && /item size.*exceeded/i.test(message)) {
        throw new ItemTooLargeError(key ?? {}, undefined);
      }
      throw err;
    }
  }
}

function keyOf(key: Key): Key {
  if (key === null || typeof key !== 'object') throw new TypeError('a key must be an object with pk and sk');
  checkKeyPart('pk', key.pk);
  checkKeyPart('sk', key.sk);
  return { pk: key.pk, sk: key.sk };
}

function checkKeyPart(name: string, value: unknown): void {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
}

function keyId(key: Key): string {
  return JSON.stringify([key.pk, key.sk]);
}

function checkSize(item: Item, key: Key): void {
  // Cheap upper bound first: a string of n UTF-16 units is at most 3n UTF-8 bytes.
  const json = JSON.stringify(item);
  if (json.length * 3 <= MAX_ITEM_JSON_BYTES) return;
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > MAX_ITEM_JSON_BYTES) throw new ItemTooLargeError(key, bytes);
}

function conditionParts(condition: WriteCondition | undefined): ConditionParts {
  if (!condition) return {};
  if ('ifNotExists' in condition && condition.ifNotExists) {
    return { ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': PARTITION_KEY } };
  }
  if ('ifExists' in condition && condition.ifExists) {
    return { ConditionExpression: 'attribute_exists(#pk)', ExpressionAttributeNames: { '#pk': PARTITION_KEY } };
  }
  if ('ifFieldEquals' in condition && condition.ifFieldEquals) {
    const { field, value } = condition.ifFieldEquals;
    if (typeof field !== 'string' || field === '') throw new TypeError('ifFieldEquals needs a field name');
    // `field` is one top-level attribute name (a dot is part of the name, not a path).
    if (value === undefined) {
      // An undefined value would be dropped by the marshaller; "equals undefined" means absent.
      return { ConditionExpression: 'attribute_not_exists(#f)', ExpressionAttributeNames: { '#f': field } };
    }
    if (value !== null && typeof value === 'object') {
      // dynalite compares maps and lists by reference (never equal), so the local host and
      // AWS would disagree: only scalars are allowed, on both.
      throw new TypeError(`ifFieldEquals compares scalar values only (string, number, boolean, null), not ${JSON.stringify(value)}`);
    }
    return {
      ConditionExpression: '#f = :v',
      ExpressionAttributeNames: { '#f': field },
      ExpressionAttributeValues: { ':v': value },
    };
  }
  throw new TypeError(`unknown write condition ${JSON.stringify(condition)}`);
}

function encodeCursor(lastEvaluatedKey: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(lastEvaluatedKey), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string, pk: string, prefix: string | undefined): Key {
  if (typeof cursor !== 'string' || cursor === '' || cursor.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw new InvalidCursorError();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new InvalidCursorError();
  const record = parsed as Record<string, unknown>;
  const names = Object.keys(record).sort();
  if (names.length !== 2 || names[0] !== PARTITION_KEY || names[1] !== SORT_KEY) throw new InvalidCursorError();
  const cpk = record[PARTITION_KEY];
  const csk = record[SORT_KEY];
  if (typeof cpk !== 'string' || typeof csk !== 'string' || csk === '') throw new InvalidCursorError();
  if (cpk !== pk) throw new InvalidCursorError('The cursor belongs to another query');
  if (prefix !== undefined && !csk.startsWith(prefix)) throw new InvalidCursorError('The cursor belongs to another query');
  return { pk: cpk, sk: csk };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
