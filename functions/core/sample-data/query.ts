import { BadRequestError, NotFoundError } from '../../http/errors';
import { SAMPLE_COLLECTIONS, type SampleCollection } from './collections';
import type { SampleRecord } from './records';

/** Page size when `_page` is given without `_limit`. */
export const DEFAULT_PAGE_SIZE = 20;

/** The parameters of one request, checked (INTERFACE.md "Sample data web service"). */
export interface SampleDataQuery {
  /** `_id` and `_id[]` values together; undefined when neither is given. */
  ids?: string[];
  /** `_query=<field>:<value>` filters, all of which must match. */
  filters: { field: string; value: string }[];
  limit?: number;
  offset?: number;
  page?: number;
}

/**
 * Answers `GET /api/collections/{collectionCode}?<rawQueryString>`: the matching records of
 * the collection in dataset order. Steps, in this order: select by id (`_id`, `_id[]`),
 * filter (`_query`, all ANDed), skip (`_offset`, or `_page`), cut (`_limit`).
 *
 * Throws NotFoundError for an unknown collection and BadRequestError for a bad parameter.
 */
export function querySampleData(collectionCode: string, rawQueryString: string): unknown[] {
  const collection = SAMPLE_COLLECTIONS.get(collectionCode);
  if (!collection) {
    const known = [...SAMPLE_COLLECTIONS.keys()].join(', ');
    throw new NotFoundError(`Unknown collection ${collectionCode}; the collections are ${known}`);
  }
  const query = parseSampleDataQuery(rawQueryString, collection.fields);
  return runQuery(collection, query);
}

/** Checks the raw query string; repeated `_id[]` works whether or not the brackets are percent-encoded. */
export function parseSampleDataQuery(rawQueryString: string, fields: ReadonlySet<string>): SampleDataQuery {
  const params = new URLSearchParams(rawQueryString.startsWith('?') ? rawQueryString.slice(1) : rawQueryString);

  let ids: string[] | undefined;
  const filters: SampleDataQuery['filters'] = [];
  for (const [name, value] of params) {
    // `_id[]` is the interface's form; `_id[0]`, `_id[1]`... is what query-string libraries often send.
    if (name === '_id' || name === '_id[]' || /^_id\[\d+\]$/.test(name)) (ids ??= []).push(value);
    else if (name === '_query') filters.push(parseFilter(value, fields));
  }

  const limit = integerParam(params, '_limit', 0);
  const offset = integerParam(params, '_offset', 0);
  const page = integerParam(params, '_page', 1);
  if (offset !== undefined && page !== undefined) {
    throw new BadRequestError('Give either _offset or _page, not both', 'InvalidParameter');
  }
  return { ids, filters, limit, offset, page };
}

function parseFilter(raw: string, fields: ReadonlySet<string>): { field: string; value: string } {
  // Split at the first colon only: values may hold colons ("Galaxy Patrol: The Last Frontier").
  const colon = raw.indexOf(':');
  if (colon <= 0) {
    throw new BadRequestError(`_query must be of the form <field>:<value>, got "${raw}"`, 'InvalidParameter');
  }
  const field = raw.slice(0, colon);
  if (!fields.has(field)) {
    throw new BadRequestError(`_query names an unknown field "${field}"; the fields are ${[...fields].join(', ')}`, 'InvalidParameter');
  }
  return { field, value: raw.slice(colon + 1).toLowerCase() };
}

/** A non-negative integer parameter given at most once, at least `min`; undefined when absent. */
function integerParam(params: URLSearchParams, name: string, min: number): number | undefined {
  const values = params.getAll(name);
  if (values.length === 0) return undefined;
  if (values.length > 1) throw new BadRequestError(`${name} must be given at most once`, 'InvalidParameter');
  const raw = values[0]!;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
    throw new BadRequestError(`${name} must be an integer of at least ${min}, got "${raw}"`, 'InvalidParameter');
  }
  return value;
}

function runQuery(collection: SampleCollection, query: SampleDataQuery): SampleRecord[] {
  let records = query.ids === undefined ? collection.records : selectByIds(collection, query.ids);
  if (query.filters.length > 0) {
    records = records.filter((record) => query.filters.every(({ field, value }) => fieldMatches(record, field, value)));
  }

  if (query.page !== undefined) {
    const size = query.limit ?? DEFAULT_PAGE_SIZE;
    const start = (query.page - 1) * size;
    return records.slice(start, start + size);
  }
  const start = query.offset ?? 0;
  return records.slice(start, query.limit === undefined ? undefined : start + query.limit);
}

/** The records with any of `ids`, each once, in dataset order; unknown ids are skipped. */
function selectByIds(collection: SampleCollection, ids: readonly string[]): SampleRecord[] {
  const positions = new Set<number>();
  for (const id of ids) {
    const position = collection.positionById.get(id);
    if (position !== undefined) positions.add(position);
  }
  return [...positions].sort((a, b) => a - b).map((position) => collection.records[position]!);
}

/**
 * `_query` matching: equality on a scalar field, membership on an array field, both
 * case-insensitive; numbers, booleans and null compare by their string form ("1994", "false", "null").
 */
function fieldMatches(record: SampleRecord, field: string, lowerCaseValue: string): boolean {
  const actual: unknown = (record as unknown as Record<string, unknown>)[field];
  if (Array.isArray(actual)) return actual.some((item) => String(item).toLowerCase() === lowerCaseValue);
  return String(actual).toLowerCase() === lowerCaseValue;
}
