import { BadRequestError } from '../../../http/errors';
import { fieldReader } from './filter';

export interface SortKey {
  field: string;
  order?: 'asc' | 'desc';
}

type Row = Record<string, unknown>;

/**
 * A comparator for `sort: [{field, order}]`: numbers numerically, strings by code point,
 * other types after them, absent values last whatever the order; ties broken by the
 * identifier, so pages are stable.
 */
export function compileSort(sort: SortKey[] | undefined): (a: Row, b: Row) => number {
  const keys = (sort ?? []).map((key, i) => {
    if (typeof key?.field !== 'string' || key.field === '') throw new BadRequestError(`sort[${i}].field: must be a non-empty string`, 'InvalidSort');
    if (key.order !== undefined && key.order !== 'asc' && key.order !== 'desc') {
      throw new BadRequestError(`sort[${i}].order: must be asc or desc`, 'InvalidSort');
    }
    return { read: fieldReader(key.field), sign: key.order === 'desc' ? -1 : 1 };
  });
  keys.push({ read: fieldReader('dataRecordIdentifier'), sign: 1 });
  return (a, b) => {
    for (const { read, sign } of keys) {
      const c = compareValues(read(a), read(b), sign);
      if (c !== 0) return c;
    }
    return 0;
  };
}

function compareValues(x: unknown, y: unknown, sign: number): number {
  const absentX = x === undefined || x === null;
  const absentY = y === undefined || y === null;
  if (absentX || absentY) return absentX === absentY ? 0 : absentX ? 1 : -1;
  const rx = rank(x);
  const ry = rank(y);
  if (rx !== ry) return (rx - ry) * sign;
  if (rx === 2) {
    const sx = JSON.stringify(x);
    const sy = JSON.stringify(y);
    return (sx < sy ? -1 : sx > sy ? 1 : 0) * sign;
  }
  return ((x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0) * sign;
}

const rank = (v: unknown) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
