import qs from 'qs';
import type { QueryParamsOptions } from '../config/model';

/**
 * Builds a query string with COMPAT.md's `queryParamsOptions` (the options of qs-style
 * builders): `arrayFormat` none (`a=1&a=2`), bracket (`a[]=1&a[]=2`, INTERFACE.md rule 1),
 * index (`a[0]=1`), comma (`a=1,2`), separator (`a=1|2` with `arrayFormatSeparator`),
 * bracket-separator (`a[]=1|2`) and colon-list-separator (`a:list=1&a:list=2`);
 * `encode` (default true), `skipNull` (default true), `skipEmptyString` (default false).
 */
export function buildQueryString(params: [string, unknown][], options: QueryParamsOptions = {}): string {
  const skipNull = options.skipNull ?? true;
  const skipEmptyString = options.skipEmptyString ?? false;
  const separator = options.arrayFormatSeparator ?? ',';
  const format = options.arrayFormat ?? 'none';
  const object: Record<string, unknown> = {};
  for (const [name, raw] of params) {
    let value = raw;
    if (Array.isArray(value)) {
      value = value.filter((v) => !(skipNull && v == null) && !(skipEmptyString && v === ''));
    } else if ((skipNull && value == null) || (skipEmptyString && value === '')) {
      continue;
    }
    if (Array.isArray(value) && (format === 'separator' || format === 'bracket-separator')) {
      const joined = value.map(scalar).join(separator);
      object[format === 'bracket-separator' ? `${name}[]` : name] = joined;
    } else if (Array.isArray(value) && format === 'colon-list-separator') {
      object[`${name}:list`] = value.map(scalar);
    } else {
      object[name] = Array.isArray(value) ? value.map(scalar) : value == null ? '' : value;
    }
  }
  return qs.stringify(object, {
    encode: options.encode ?? true,
    arrayFormat: QS_FORMATS[format],
    allowDots: false,
  });
}

const QS_FORMATS: Record<string, 'repeat' | 'brackets' | 'indices' | 'comma'> = {
  none: 'repeat',
  bracket: 'brackets',
  index: 'indices',
  comma: 'comma',
  separator: 'repeat',
  'bracket-separator': 'repeat',
  'colon-list-separator': 'repeat',
};

function scalar(value: unknown): string {
  if (value == null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
