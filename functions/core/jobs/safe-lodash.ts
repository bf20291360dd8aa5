import _ from 'lodash';

/**
 * `_` in job expressions (download `hasMore`, COMPAT.md): the lodash functions that take data
 * and give data. Functions that build or call code (`template`, `bind`, `invoke`, `method`,
 * `iteratee`, `mixin`, ...) are left out, so `_` cannot become a way to run host code.
 */
const SAFE = [
  'get', 'has', 'isEmpty', 'isNil', 'isNull', 'isUndefined', 'isArray', 'isString', 'isNumber', 'isBoolean',
  'isPlainObject', 'size', 'first', 'head', 'last', 'nth', 'toNumber', 'toString', 'toInteger', 'toLower', 'toUpper',
  'trim', 'startsWith', 'endsWith', 'pick', 'omit', 'keys', 'values', 'includes', 'uniq', 'flatten', 'compact',
  'sum', 'max', 'min', 'isEqual', 'clamp', 'chunk', 'take', 'drop', 'difference', 'intersection', 'union',
] as const;

export const SAFE_LODASH: Readonly<Record<string, (...args: unknown[]) => unknown>> = Object.freeze(
  Object.fromEntries(SAFE.map((name) => [name, (_ as unknown as Record<string, (...args: unknown[]) => unknown>)[name]])),
);
