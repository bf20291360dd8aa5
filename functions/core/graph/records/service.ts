import { BadRequestError, ConflictError, NotFoundError } from '../../../http/errors';
import type { Clock } from '../../../ports/clock';
import type { Collection, CollectionSchema } from '../collections/model';
import type { CollectionRepository } from '../collections/repository';
import { compileFilter, indexedEquality, type RecordFilter } from './filter';
import type { DataRecord } from './record-item';
import { RECORD_SHARDS } from './record-item';
import type { RecordStore, StoredRecord } from './record-store';
import { compileSort, type SortKey } from './sort';
import { compileValidator, type RecordProblem } from './validate';

export type IfExists = 'update' | 'ignore' | 'fail';

export interface WriteResult {
  new: DataRecord;
  old?: DataRecord;
  /** Present (true) when `ifExists: "ignore"` left an existing record as it was. */
  ignored?: true;
}

export interface RecordQuery {
  filter?: unknown;
  sort?: SortKey[];
  limit?: number;
  offset?: number;
}

/** COMPAT.md: at most 300 records a `_query` call. */
export const MAX_QUERY_LIMIT = 300;
export const DEFAULT_QUERY_LIMIT = 100;
export const MAX_SCROLL_LIMIT = 1_000;
/** Records a single write call may carry. */
export const MAX_RECORDS_PER_WRITE = 1_000;
const WRITE_CONCURRENCY = 16;
const WRITE_ATTEMPTS = 5;

/** A collection ready to receive imported records. */
export interface ImportTarget {
  customerCode: string;
  context: CollectionContext;
}

/** What a records call needs to know of its collection, read once per call. */
interface CollectionContext {
  collection: Collection;
  schema?: CollectionSchema;
  validate: (record: Record<string, unknown>) => RecordProblem[];
  indexed: string[];
}

/**
 * INTERFACE.md "Data record" and "Data record lifecycle": writes (create or update, even when
 * nothing changed), reads, partial updates, removals, queries and scrolls. Events are not made
 * here: they come from the store's change stream (DynamoDB Streams in AWS, its local twin
 * otherwise), so a record is never written without its event nor an event raised for a
 * record that was not written.
 */
export class RecordService {
  constructor(
    private readonly collections: CollectionRepository,
    private readonly records: RecordStore,
    private readonly clock: Clock,
  ) {}

  async write(customerCode: string, collectionCode: string, dataRecords: unknown[], ifExists: IfExists = 'update'): Promise<WriteResult[]> {
    const ctx = await this.context(customerCode, collectionCode);
    if (dataRecords.length > MAX_RECORDS_PER_WRITE) throw new BadRequestError(`dataRecords: at most ${MAX_RECORDS_PER_WRITE} records a call`);
    // Check everything before writing anything: an invalid call writes nothing.
    const prepared = dataRecords.map((raw, i) => this.prepare(ctx, raw, `dataRecords[${i}]`));
    const problems = prepared.flatMap((p) => p.problems);
    if (problems.length > 0) throw new BadRequestError(problems.slice(0, 50).join('; '), 'InvalidRecord');
    const seen = new Set<string>();
    for (const { id } of prepared) {
      if (seen.has(id)) throw new BadRequestError(`dataRecords: identifier ${id} appears more than once`, 'InvalidRecord');
      seen.add(id);
    }
    const existing = await this.records.getMany(customerCode, collectionCode, [...seen]);
    if (ifExists === 'fail' && existing.size > 0) {
      throw new ConflictError(`Records already exist: ${[...existing.keys()].slice(0, 20).join(', ')}`);
    }

    const results: WriteResult[] = new Array(prepared.length);
    let next = 0;
    const worker = async () => {
      while (next < prepared.length) {
        const i = next++;
        const { id, fields } = prepared[i];
        const previous = existing.get(id);
        if (previous && ifExists === 'ignore') {
          results[i] = { new: previous.record, old: previous.record, ignored: true };
          continue;
        }
        results[i] = await this.upsert(ctx, customerCode, id, () => fields, previous);
      }
    };
    await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, prepared.length) }, worker));
    return results;
  }

  async get(customerCode: string, collectionCode: string, id: string): Promise<DataRecord> {
    await this.context(customerCode, collectionCode);
    const found = await this.records.get(customerCode, collectionCode, id);
    if (!found) throw new NotFoundError(`Record ${id} does not exist in collection ${collectionCode}`);
    return found.record;
  }

  /** Partial update: the given fields replace the stored ones; the result is validated whole. */
  async patch(customerCode: string, collectionCode: string, id: string, changes: unknown): Promise<WriteResult> {
    const ctx = await this.context(customerCode, collectionCode);
    if (!isObject(changes)) throw new BadRequestError('body: must be an object of fields', 'InvalidRecord');
    const idProperty = ctx.collection.dataRecordIdentifierProperty;
    if (idProperty in changes && normaliseId(changes[idProperty]) !== id) {
      throw new BadRequestError(`${idProperty}: the identifier of a record cannot change`, 'InvalidRecord');
    }
    const previous = await this.records.get(customerCode, collectionCode, id);
    if (!previous) throw new NotFoundError(`Record ${id} does not exist in collection ${collectionCode}`);
    return this.upsert(ctx, customerCode, id, (current) => {
      const merged = { ...strip(current ?? {}), ...strip(changes) };
      const { problems, fields } = this.prepare(ctx, merged, 'body');
      if (problems.length > 0) throw new BadRequestError(problems.join('; '), 'InvalidRecord');
      return fields;
    }, previous);
  }

  async remove(customerCode: string, collectionCode: string, id: string): Promise<DataRecord> {
    const ctx = await this.context(customerCode, collectionCode);
    const removed = await this.records.remove(customerCode, collectionCode, id, ctx.indexed);
    if (!removed) throw new NotFoundError(`Record ${id} does not exist in collection ${collectionCode}`);
    return removed;
  }

  async query(customerCode: string, collectionCode: string, query: RecordQuery): Promise<{ data: DataRecord[]; total: number }> {
    const ctx = await this.context(customerCode, collectionCode);
    const limit = bounded(query.limit, DEFAULT_QUERY_LIMIT, MAX_QUERY_LIMIT, 'limit');
    const offset = bounded(query.offset, 0, Number.MAX_SAFE_INTEGER, 'offset', 0);
    const filter = compileFilter(query.filter);
    const compare = compileSort(query.sort);
    const candidates = await this.candidates(ctx, customerCode, query.filter);
    const matches = candidates.filter(filter).sort(compare);
    return { data: matches.slice(offset, offset + limit), total: matches.length };
  }

  /** Reads a whole collection of any size page by page: `scrollId` says where the last page ended. */
  async scroll(
    customerCode: string,
    collectionCode: string,
    request: { filter?: unknown; limit?: number; scrollId?: string },
  ): Promise<{ scrollId?: string; hasNext: boolean; data: DataRecord[] }> {
    await this.context(customerCode, collectionCode);
    const limit = bounded(request.limit, DEFAULT_QUERY_LIMIT, MAX_SCROLL_LIMIT, 'limit');
    const position: Omit<ScrollPosition, 'collectionCode'> = request.scrollId
      ? decodeScroll(request.scrollId, collectionCode)
      : { shard: 0, filter: request.filter };
    const filter: RecordFilter = compileFilter(position.filter);
    const data: DataRecord[] = [];
    let { shard, after } = position;
    while (shard < RECORD_SHARDS && data.length < limit) {
      const page = await this.records.page(customerCode, collectionCode, shard, after, Math.max(limit, 100));
      let consumed = 0;
      for (const item of page.items) {
        consumed++;
        after = item.sk;
        if (filter(item.record)) data.push(item.record);
        if (data.length === limit) break;
      }
      if (page.done && consumed === page.items.length) {
        shard++;
        after = undefined;
      }
    }
    const hasNext = shard < RECORD_SHARDS;
    return { ...(hasNext ? { scrollId: encodeScroll({ collectionCode, shard, after, filter: position.filter }) } : {}), hasNext, data };
  }

  /** Removes every record of a collection, one by one, so each raises DataRecordRemoved. */
  async removeAll(customerCode: string, collectionCode: string): Promise<number> {
    const ctx = await this.context(customerCode, collectionCode);
    const ids = (await this.records.readAll(customerCode, collectionCode)).map((r) => r.dataRecordIdentifier);
    let next = 0;
    let removed = 0;
    const worker = async () => {
      while (next < ids.length) {
        if (await this.records.remove(customerCode, collectionCode, ids[next++], ctx.indexed)) removed++;
      }
    };
    await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));
    return removed;
  }

  /** The collection as an import target: loaded once per import chunk. */
  async importTarget(customerCode: string, collectionCode: string): Promise<ImportTarget> {
    return { customerCode, context: await this.context(customerCode, collectionCode) };
  }

  /**
   * Checks one record for an import: its identifier (from `identifierField`, else the
   * collection's identifier property) and the schema. Answers what would be stored, or the
   * problems.
   */
  checkForImport(target: ImportTarget, raw: Record<string, unknown>, identifierField?: string): { id: string; fields: Record<string, unknown>; problems: string[] } {
    const ctx = target.context;
    const idProperty = ctx.collection.dataRecordIdentifierProperty;
    const source = identifierField && identifierField !== idProperty ? { ...raw, [idProperty]: raw[identifierField] } : raw;
    const prepared = this.prepare(ctx, source, 'record');
    return { ...prepared, problems: prepared.problems.map((p) => p.replace(/^record\.?/, '').replace(/^: /, '')) };
  }

  /** Upserts checked records with batch writes; answers how many were created and updated. */
  async importRecords(target: ImportTarget, records: { id: string; fields: Record<string, unknown> }[]): Promise<{ created: number; updated: number }> {
    const { customerCode, context: ctx } = target;
    const code = ctx.collection.collectionCode;
    const unique = [...new Map(records.map((r) => [r.id, r])).values()];
    const existing = await this.records.getMany(customerCode, code, unique.map((r) => r.id));
    const now = this.clock.now();
    const entries = unique.map(({ id, fields }) => {
      const previous = existing.get(id);
      const record: DataRecord = {
        ...fields,
        dataRecordIdentifier: id,
        '@iat': previous?.record['@iat'] ?? now,
        '@uat': previous ? Math.max(now, previous.record['@uat'] + 1) : now,
      };
      return { record, previous };
    });
    await this.records.writeMany(customerCode, code, entries, ctx.indexed);
    const updated = entries.filter((e) => e.previous).length;
    return { created: entries.length - updated, updated };
  }

  backfillIndex(customerCode: string, collectionCode: string, field: string): Promise<void> {
    return this.records.backfillIndex(customerCode, collectionCode, field);
  }

  private async candidates(ctx: CollectionContext, customerCode: string, filter: unknown): Promise<DataRecord[]> {
    const code = ctx.collection.collectionCode;
    const byIndex = indexedEquality(filter, new Set(ctx.indexed));
    if (!byIndex) return this.records.readAll(customerCode, code);
    const ids = new Set((await Promise.all(byIndex.values.map((v) => this.records.idsByIndex(customerCode, code, byIndex.field, v)))).flat());
    return [...(await this.records.getMany(customerCode, code, [...ids])).values()].map((s) => s.record);
  }

  /** Writes one record, retrying when another writer got there first. */
  private async upsert(
    ctx: CollectionContext,
    customerCode: string,
    id: string,
    fieldsFrom: (current: DataRecord | undefined) => Record<string, unknown>,
    previous: StoredRecord | undefined,
  ): Promise<WriteResult> {
    const code = ctx.collection.collectionCode;
    for (let attempt = 1; ; attempt++) {
      const now = this.clock.now();
      const record: DataRecord = {
        ...fieldsFrom(previous?.record),
        dataRecordIdentifier: id,
        '@iat': previous?.record['@iat'] ?? now,
        '@uat': previous ? Math.max(now, previous.record['@uat'] + 1) : now,
      };
      try {
        await this.records.write(customerCode, code, record, previous, ctx.indexed);
        return previous ? { new: record, old: previous.record } : { new: record };
      } catch (err) {
        if (!(err as { isConditionFailed?: boolean }).isConditionFailed || attempt >= WRITE_ATTEMPTS) {
          if ((err as { isConditionFailed?: boolean }).isConditionFailed) throw new ConflictError(`Record ${id} is being written concurrently; try again`);
          throw err;
        }
        previous = await this.records.get(customerCode, code, id);
      }
    }
  }

  /** The record's identifier and the fields it stores, or the problems that refuse it. */
  private prepare(ctx: CollectionContext, raw: unknown, at: string): { id: string; fields: Record<string, unknown>; problems: string[] } {
    if (!isObject(raw)) return { id: '', fields: {}, problems: [`${at}: must be an object`] };
    const idProperty = ctx.collection.dataRecordIdentifierProperty;
    const id = normaliseId(raw[idProperty]);
    const problems: string[] = [];
    if (id === undefined) problems.push(`${at}.${idProperty}: the identifier property must be a non-empty string or a number`);
    const input = strip(raw);
    const fields: Record<string, unknown> = {};
    if (ctx.schema && Object.keys(ctx.schema.fields).length > 0) {
      // The stored record carries the schema's fields (and the identifier property).
      for (const name of Object.keys(ctx.schema.fields)) if (input[name] !== undefined) fields[name] = input[name];
      if (input[idProperty] !== undefined) fields[idProperty] = input[idProperty];
    } else {
      Object.assign(fields, input);
    }
    // A missing identifier is said once, not again as a missing required field.
    const schemaProblems = ctx.validate(fields).filter((p) => id !== undefined || p.field !== idProperty);
    problems.push(...schemaProblems.map((p) => `${at}.${p.field}: ${p.message}`));
    return { id: id ?? '', fields, problems };
  }

  private async context(customerCode: string, collectionCode: string): Promise<CollectionContext> {
    const [collection, schema] = await Promise.all([
      this.collections.get(customerCode, collectionCode),
      this.collections.getSchema(customerCode, collectionCode),
    ]);
    if (!collection) throw new NotFoundError(`Collection ${collectionCode} does not exist`);
    const indexed = Object.entries(schema?.fields ?? {})
      .filter(([, d]) => d.options?.indexed)
      .map(([name]) => name);
    return { collection, schema, validate: compileValidator(schema), indexed };
  }
}

/** Server-kept fields are never taken from input. */
function strip(input: Record<string, unknown>): Record<string, unknown> {
  const { dataRecordIdentifier: _id, '@iat': _iat, '@uat': _uat, ...rest } = input;
  return rest;
}

function normaliseId(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '' && value.length <= 1024) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bounded(value: number | undefined, fallback: number, max: number, name: string, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) throw new BadRequestError(`${name}: must be an integer from ${min} to ${max}`);
  return value;
}

interface ScrollPosition {
  collectionCode: string;
  shard: number;
  after?: string;
  filter?: unknown;
}

function encodeScroll(position: ScrollPosition): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function decodeScroll(scrollId: string, collectionCode: string): ScrollPosition {
  try {
    const position = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as ScrollPosition;
    if (position.collectionCode === collectionCode && Number.isInteger(position.shard) && position.shard >= 0 && position.shard < RECORD_SHARDS) {
      return position;
    }
  } catch {
    // fall through
  }
  throw new BadRequestError('scrollId: not a scroll position of this collection', 'InvalidScrollId');
}
