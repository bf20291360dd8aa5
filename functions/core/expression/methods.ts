/**
 * The whitelisted methods of arrays, strings, numbers and booleans. Each is our own code (or
 * a native string/number primitive operation on already converted arguments), never a
 * lookup on a prototype. Arrays are never mutated: reverse and sort return copies.
 */
import { fault } from './errors';
import type { EvalContext } from './scope';
import { describe, joinArray, relativeIndex, toInteger, toNumber, toStringValue } from './values';

/** An arrow function written in the expression, as the interpreter hands it to a method. */
export type Callback = (...args: unknown[]) => unknown;
type Method<T> = (ctx: EvalContext, target: T, args: readonly unknown[]) => unknown;

function callbackArg(args: readonly unknown[], index: number, method: string): Callback {
  const fn = args[index];
  if (typeof fn !== 'function') fault(`${method} expects an arrow function such as x => ..., not ${describe(fn)}`);
  return fn as Callback;
}

const optionalNumber = (value: unknown, ctx: EvalContext): number | undefined =>
  value === undefined ? undefined : toNumber(value, ctx);

function flatten(ctx: EvalContext, source: readonly unknown[], depth: number, out: unknown[]): unknown[] {
  ctx.charge(source.length);
  for (let i = 0; i < source.length; i++) {
    const element = source[i];
    if (depth > 0 && Array.isArray(element)) flatten(ctx, element, depth - 1, out);
    else out.push(element);
  }
  return out;
}

function copy(ctx: EvalContext, array: readonly unknown[]): unknown[] {
  ctx.charge(array.length);
  return Array.prototype.slice.call(array);
}

const arrayMethods: Record<string, Method<readonly unknown[]>> = {
  map(_ctx, a, args) {
    const fn = callbackArg(args, 0, 'map');
    const out = new Array<unknown>(a.length);
    for (let i = 0; i < a.length; i++) out[i] = fn(a[i], i, a);
    return out;
  },
  filter(_ctx, a, args) {
    const fn = callbackArg(args, 0, 'filter');
    const out: unknown[] = [];
    for (let i = 0; i < a.length; i++) if (fn(a[i], i, a)) out.push(a[i]);
    return out;
  },
  find(_ctx, a, args) {
    const fn = callbackArg(args, 0, 'find');
    for (let i = 0; i < a.length; i++) if (fn(a[i], i, a)) return a[i];
    return undefined;
  },
  findIndex(_ctx, a, args) {
    const fn = callbackArg(args, 0, 'findIndex');
    for (let i = 0; i < a.length; i++) if (fn(a[i], i, a)) return i;
    return -1;
  },
  some(_ctx, a, args) {
    const fn = callbackArg(args, 0, 'some');
    for (let i = 0; i < a.length; i++) if (fn(a[i], i, a)) return true;
    return false;
  },
  every(_ctx, a, args) {
    const fn = callbackArg(args, 0, 'every');
    for (let i = 0; i < a.length; i++) if (!fn(a[i], i, a)) return false;
    return true;
  },
  reduce(_ctx, a, args) {
    const fn = callbackArg(args, 0, 'reduce');
    let i = 0;
    let acc: unknown;
    if (args.length >= 2) acc = args[1];
    else if (a.length === 0) fault('reduce of an empty array needs an initial value');
    else acc = a[i++];
    for (; i < a.length; i++) acc = fn(acc, a[i], i, a);
    return acc;
  },
  flatMap(ctx, a, args) {
    const fn = callbackArg(args, 0, 'flatMap');
    const out: unknown[] = [];
    for (let i = 0; i < a.length; i++) {
      const mapped = fn(a[i], i, a);
      if (Array.isArray(mapped)) flatten(ctx, mapped, 0, out);
      else out.push(mapped);
    }
    return out;
  },
  includes(ctx, a, args) {
    ctx.charge(a.length);
    return Array.prototype.includes.call(a, args[0], toInteger(args[1], ctx));
  },
  indexOf(ctx, a, args) {
    ctx.charge(a.length);
    return Array.prototype.indexOf.call(a, args[0], toInteger(args[1], ctx));
  },
  join(ctx, a, args) {
    return joinArray(a, args[0] === undefined ? ',' : toStringValue(args[0], ctx), ctx);
  },
  slice(ctx, a, args) {
    const start = relativeIndex(args[0], a.length, 0, ctx);
    const end = relativeIndex(args[1], a.length, a.length, ctx);
    ctx.charge(Math.max(end - start, 0));
    const out: unknown[] = [];
    for (let i = start; i < end; i++) out.push(a[i]);
    return out;
  },
  concat(ctx, a, args) {
    const out = copy(ctx, a);
    for (const item of args) {
      if (Array.isArray(item)) {
        ctx.charge(item.length);
        for (let i = 0; i < item.length; i++) out.push(item[i]);
      } else {
        out.push(item);
      }
    }
    return out;
  },
  flat(ctx, a, args) {
    return flatten(ctx, a, args[0] === undefined ? 1 : toInteger(args[0], ctx), []);
  },
  at(ctx, a, args) {
    const n = toInteger(args[0], ctx);
    const i = n < 0 ? a.length + n : n;
    return i >= 0 && i < a.length ? a[i] : undefined;
  },
  reverse(ctx, a) {
    return copy(ctx, a).reverse();
  },
  sort(ctx, a, args) {
    return sortCopy(ctx, a, args[0]);
  },
};
arrayMethods.toReversed = arrayMethods.reverse;
arrayMethods.toSorted = arrayMethods.sort;

function sortCopy(ctx: EvalContext, a: readonly unknown[], comparator: unknown): unknown[] {
  const out = copy(ctx, a);
  ctx.charge(Math.ceil(out.length * Math.log2(out.length + 1)));
  if (comparator === undefined) {
    // JavaScript's default order: by string form, undefined last.
    const keyed = out.filter((v) => v !== undefined).map((v) => ({ v, k: toStringValue(v, ctx) }));
    keyed.sort((x, y) => (x.k < y.k ? -1 : x.k > y.k ? 1 : 0));
    const sorted: unknown[] = keyed.map((e) => e.v);
    while (sorted.length < out.length) sorted.push(undefined);
    return sorted;
  }
  const fn = callbackArg([comparator], 0, 'sort');
  return out.sort((x, y) => {
    const r = toNumber(fn(x, y), ctx);
    return r === r ? r : 0;
  });
}

const stringMethods: Record<string, Method<string>> = {
  toLowerCase: (ctx, s) => ctx.built(s.toLowerCase()),
  toUpperCase: (ctx, s) => ctx.built(s.toUpperCase()),
  trim: (ctx, s) => ctx.built(s.trim()),
  trimStart: (ctx, s) => ctx.built(s.trimStart()),
  trimEnd: (ctx, s) => ctx.built(s.trimEnd()),
  includes: (ctx, s, args) => searched(ctx, s) && s.includes(toStringValue(args[0], ctx), optionalNumber(args[1], ctx)),
  startsWith: (ctx, s, args) => searched(ctx, s) && s.startsWith(toStringValue(args[0], ctx), optionalNumber(args[1], ctx)),
  endsWith: (ctx, s, args) => searched(ctx, s) && s.endsWith(toStringValue(args[0], ctx), optionalNumber(args[1], ctx)),
  indexOf: (ctx, s, args) => (searched(ctx, s) ? s.indexOf(toStringValue(args[0], ctx), optionalNumber(args[1], ctx)) : -1),
  slice: (ctx, s, args) => ctx.built(s.slice(optionalNumber(args[0], ctx), optionalNumber(args[1], ctx))),
  substring: (ctx, s, args) => ctx.built(s.substring(toNumber(args[0], ctx), optionalNumber(args[1], ctx))),
  charAt: (ctx, s, args) => s.charAt(toInteger(args[0], ctx)),
  at: (ctx, s, args) => s.at(toInteger(args[0], ctx)),
  split(ctx, s, args) {
    if (args[0] === undefined) return [s];
    const separator = toStringValue(args[0], ctx);
    // Splitting into characters makes one element per character: pay before building them.
    if (separator === '') ctx.charge(s.length);
    else searched(ctx, s);
    const parts = s.split(separator, optionalNumber(args[1], ctx));
    ctx.charge(parts.length);
    return parts;
  },
  replace(ctx, s, args) {
    const pattern = args[0];
    if (typeof pattern !== 'string') fault(`replace accepts only a string pattern, not ${describe(pattern)}`);
    searched(ctx, s);
    const at = s.indexOf(pattern);
    if (at < 0) return s;
    const replacement = args[1];
    // The replacement is taken literally ($& and friends are not expanded), so its size is known.
    const text =
      typeof replacement === 'function'
        ? toStringValue((replacement as Callback)(pattern, at, s), ctx)
        : toStringValue(replacement, ctx);
    ctx.checkLength(s.length - pattern.length + text.length);
    return ctx.built(s.slice(0, at) + text + s.slice(at + pattern.length));
  },
  padStart: (ctx, s, args) => pad(ctx, s, args, true),
  padEnd: (ctx, s, args) => pad(ctx, s, args, false),
  repeat(ctx, s, args) {
    const count = toInteger(args[0], ctx);
    if (count < 0 || count === Infinity) fault(`repeat count must be a non-negative finite number, not ${count}`);
    ctx.checkLength(s.length * count);
    return ctx.built(s.repeat(count));
  },
  toString: (_ctx: EvalContext, s: string) => s,
};

function searched(ctx: EvalContext, s: string): true {
  if (s.length > 64) ctx.charge(s.length >>> 6);
  return true;
}

function pad(ctx: EvalContext, s: string, args: readonly unknown[], start: boolean): string {
  const length = toInteger(args[0], ctx);
  ctx.checkLength(length);
  const filler = args[1] === undefined ? ' ' : toStringValue(args[1], ctx);
  return ctx.built(start ? s.padStart(length, filler) : s.padEnd(length, filler));
}

const numberMethods: Record<string, Method<number>> = {
  toFixed: (ctx, n, args) => n.toFixed(toInteger(args[0], ctx)),
  toString: (ctx: EvalContext, n: number, args: readonly unknown[]) => n.toString(args[0] === undefined ? undefined : toInteger(args[0], ctx)),
};

const booleanMethods: Record<string, Method<boolean>> = {
  toString: (_ctx: EvalContext, b: boolean) => String(b),
};

/** The argument position of the arrow function each method takes; other methods take none. */
const CALLBACK_POSITION: Readonly<Record<string, number>> = {
  map: 0, filter: 0, find: 0, findIndex: 0, some: 0, every: 0, reduce: 0, flatMap: 0, sort: 0, toSorted: 0, replace: 1,
};

/** An arrow function may only go where a method calls it: anywhere else it would end up in data. */
export function refuseCallbacks(name: string, args: readonly unknown[], allowedAt = -1): void {
  for (let i = 0; i < args.length; i++) {
    if (typeof args[i] === 'function' && i !== allowedAt) fault(`${name} does not take an arrow function as argument ${i + 1}`);
  }
}

function table<T>(methods: Record<string, Method<T>>): Map<string, Method<T>> {
  return new Map(
    Object.entries(methods).map(([name, method]): [string, Method<T>] => {
      const allowedAt = Object.prototype.hasOwnProperty.call(CALLBACK_POSITION, name) ? CALLBACK_POSITION[name] : -1;
      return [
        name,
        (ctx, target, args) => {
          refuseCallbacks(name, args, allowedAt);
          return method(ctx, target, args);
        },
      ];
    }),
  );
}

const tables = {
  array: table(arrayMethods),
  string: table(stringMethods),
  number: table(numberMethods),
  boolean: table(booleanMethods),
};

/** The method names callable on each kind of value. */
export const METHOD_NAMES = {
  array: new Set(tables.array.keys()),
  string: new Set(tables.string.keys()),
  number: new Set(tables.number.keys()),
  boolean: new Set(tables.boolean.keys()),
} as const;

/** The whitelisted method `name` of `receiver`, or undefined when there is none. */
export function findMethod(receiver: unknown, name: string): Method<never> | undefined {
  switch (typeof receiver) {
    case 'string':
      return tables.string.get(name) as Method<never> | undefined;
    case 'number':
      return tables.number.get(name) as Method<never> | undefined;
    case 'boolean':
      return tables.boolean.get(name) as Method<never> | undefined;
    case 'object':
      return Array.isArray(receiver) ? (tables.array.get(name) as Method<never> | undefined) : undefined;
    default:
      return undefined;
  }
}
