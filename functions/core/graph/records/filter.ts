import { BadRequestError } from '../../../http/errors';

/**
 * Record filters in COMPAT.md's form: `{"$eq": {"field": "age", "value": 40}}`, combined with
 * `$and`, `$or` (arrays of filters) and `$not` (one filter). Field names may be dotted paths
 * into nested objects. `$eq` on an array field matches membership; comparisons between
 * values of different types are false. A malformed filter is a 400 naming its path.
 */
export type RecordFilter = (record: Record<string, unknown>) => boolean;

const COMPARISONS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$contains', '$exists'] as const;
type Comparison = (typeof COMPARISONS)[number];

export function compileFilter(filter: unknown, path = 'filter'): RecordFilter {
  if (filter === undefined || filter === null) return () => true;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw bad(path, 'must be an object with one operator');
  const entries = Object.entries(filter);
  if (entries.length !== 1) throw bad(path, 'must have exactly one operator');
  const [operator, operand] = entries[0];
  const at = `${path}.${operator}`;
  if (operator === '$and' || operator === '$or') {
    if (!Array.isArray(operand) || operand.length === 0) throw bad(at, 'must be a non-empty array of filters');
    const parts = operand.map((f, i) => compileFilter(f, `${at}[${i}]`));
    return operator === '$and' ? (r) => parts.every((p) => p(r)) : (r) => parts.some((p) => p(r));
  }
  if (operator === '$not') {
    const inner = compileFilter(operand, at);
    return (r) => !inner(r);
  }
  if (!(COMPARISONS as readonly string[]).includes(operator)) throw bad(path, `unknown operator ${operator}`);
  const { field, value } = comparisonOperand(operand, at);
  const read = fieldReader(field);
  return comparison(operator as Comparison, read, value, at);
}

/** `{field, value}` of a comparison, checked. */
export function comparisonOperand(operand: unknown, at: string): { field: string; value: unknown } {
  if (typeof operand !== 'object' || operand === null || Array.isArray(operand)) throw bad(at, 'must be {field, value}');
  const { field, value } = operand as { field?: unknown; value?: unknown };
  if (typeof field !== 'string' || field === '') throw bad(`${at}.field`, 'must be a non-empty string');
  return { field, value };
}

function comparison(operator: Comparison, read: (r: Record<string, unknown>) => unknown, value: unknown, at: string): RecordFilter {
  switch (operator) {
    case '$eq':
      return (r) => matchesEqual(read(r), value);
    case '$ne':
      return (r) => !matchesEqual(read(r), value);
    case '$gt':
      return ordered(read, value, at, (c) => c > 0);
    case '$gte':
      return ordered(read, value, at, (c) => c >= 0);
    case '$lt':
      return ordered(read, value, at, (c) => c < 0);
    case '$lte':
      return ordered(read, value, at, (c) => c <= 0);
    case '$in': {
      if (!Array.isArray(value)) throw bad(`${at}.value`, 'must be an array');
      return (r) => {
        const actual = read(r);
        return value.some((v) => matchesEqual(actual, v));
      };
    }
    case '$contains':
      return (r) => {
        const actual = read(r);
        if (typeof actual === 'string' && typeof value === 'string') return actual.toLowerCase().includes(value.toLowerCase());
        if (Array.isArray(actual)) return actual.some((item) => sameValue(item, value));
        return false;
      };
    case '$exists': {
      if (typeof value !== 'boolean') throw bad(`${at}.value`, 'must be true or false');
      return (r) => (read(r) !== undefined) === value;
    }
  }
}

function ordered(read: (r: Record<string, unknown>) => unknown, value: unknown, at: string, accept: (c: number) => boolean): RecordFilter {
  if (typeof value !== 'number' && typeof value !== 'string') throw bad(`${at}.value`, 'must be a number or a string');
  return (r) => {
    const actual = read(r);
    if (typeof actual !== typeof value) return false;
    return accept(actual! < value ? -1 : actual! > value ? 1 : 0);
  };
}

/** Equality, with membership when the field holds an array (and the value is not one). */
export function matchesEqual(actual: unknown, value: unknown): boolean {
  if (Array.isArray(actual) && !Array.isArray(value)) return actual.some((item) => sameValue(item, value));
  return sameValue(actual, value);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** Reads `a.b.c` from a record. */
export function fieldReader(field: string): (record: Record<string, unknown>) => unknown {
  const parts = field.split('.');
  if (parts.length === 1) return (record) => (Object.hasOwn(record, field) ? record[field] : undefined);
  return (record) => {
    let at: unknown = record;
    for (const part of parts) {
      if (typeof at !== 'object' || at === null || !Object.hasOwn(at, part)) return undefined;
      at = (at as Record<string, unknown>)[part];
    }
    return at;
  };
}

function bad(path: string, message: string): BadRequestError {
  return new BadRequestError(`${path}: ${message}`, 'InvalidFilter');
}

/**
 * When the filter requires `field` to equal one of some scalar values (a top-level `$eq`/`$in`,
 * or one inside a top-level `$and`) on an indexed field, those values: the index then gives a
 * superset of the matches, and the full filter is still applied to each candidate.
 */
export function indexedEquality(filter: unknown, indexed: ReadonlySet<string>): { field: string; values: unknown[] } | undefined {
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) return undefined;
  const [operator, operand] = Object.entries(filter)[0] ?? [];
  if (operator === '$and' && Array.isArray(operand)) {
    for (const part of operand) {
      const found = indexedEquality(part, indexed);
      if (found) return found;
    }
    return undefined;
  }
  if (operator !== '$eq' && operator !== '$in') return undefined;
  const { field, value } = (operand ?? {}) as { field?: string; value?: unknown };
  if (typeof field !== 'string' || !indexed.has(field)) return undefined;
  const values = operator === '$in' ? value : [value];
  if (!Array.isArray(values) || !values.every(isScalar)) return undefined;
  return { field, values };
}

export function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
