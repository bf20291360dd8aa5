/**
 * The values expressions work with: primitives, arrays and plain objects (JSON-like data).
 * Conversions are done here, by us, so that no host `toString`/`valueOf` ever runs and an
 * array with shared parts cannot make a native conversion explode.
 */
import { fault } from './errors';
import type { EvalContext } from './scope';

/** Built-in objects no expression may ever hold, even when a host function returns one. */
export const INTRINSICS: ReadonlySet<unknown> = new Set<unknown>([
  Object.prototype,
  Array.prototype,
  Function.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  Symbol.prototype,
  BigInt.prototype,
  Promise.prototype,
  RegExp.prototype,
  Date.prototype,
  Error.prototype,
  Object.getPrototypeOf(function* () {}),
  Object.getPrototypeOf(async function () {}),
  globalThis,
  Math,
  JSON,
  Reflect,
]);

/** An object whose prototype is Object.prototype or null (and not an intrinsic). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !INTRINSICS.has(value);
}

/** "an array", "a string", "undefined", ... for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'bigint':
      return 'a bigint';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
  }
  if (Array.isArray(value)) return 'an array';
  if (isPlainObject(value)) return 'an object';
  return 'a host object';
}

/** JavaScript's ToString for expression values; arrays join with commas, objects are "[object Object]". */
export function toStringValue(value: unknown, ctx: EvalContext): string {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
    case 'bigint':
    case 'undefined':
      return String(value);
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return joinArray(value, ',', ctx);
  if (isPlainObject(value)) return '[object Object]';
  return fault(`Cannot convert ${describe(value)} to a string`);
}

/** Array.prototype.join, with every element converted by toStringValue and the result size checked. */
export function joinArray(array: readonly unknown[], separator: string, ctx: EvalContext): string {
  const length = array.length;
  ctx.charge(length);
  let out = '';
  for (let i = 0; i < length; i++) {
    if (i > 0) out += separator;
    const element = array[i];
    if (element !== null && element !== undefined) out += toStringValue(element, ctx);
    if (out.length > ctx.maxStringLength) ctx.checkLength(out.length);
  }
  return ctx.built(out);
}

/** JavaScript's ToPrimitive: objects become their string form. */
export function toPrimitive(value: unknown, ctx: EvalContext): unknown {
  return typeof value === 'object' && value !== null ? toStringValue(value, ctx) : value;
}

/** JavaScript's ToNumber for expression values. */
export function toNumber(value: unknown, ctx: EvalContext): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'symbol' || typeof value === 'function') return fault(`Cannot convert ${describe(value)} to a number`);
  return Number(toPrimitive(value, ctx));
}

/** ToIntegerOrInfinity, for index and count arguments. */
export function toInteger(value: unknown, ctx: EvalContext): number {
  const n = Math.trunc(toNumber(value, ctx));
  return n === n ? n : 0; // NaN becomes 0
}

/** Resolves a relative index (negative counts from the end) into [0, length]. */
export function relativeIndex(value: unknown, length: number, fallback: number, ctx: EvalContext): number {
  if (value === undefined) return fallback;
  const n = toInteger(value, ctx);
  if (n < 0) return Math.max(length + n, 0);
  return Math.min(n, length);
}
