/**
 * The safe built-ins every expression can use without the host providing them: Math, JSON,
 * Object and Array namespaces (a few functions each) and the conversion functions. They are
 * our own wrappers: arguments are converted by values.ts, never by native coercion.
 */
import { fault, messageOf } from './errors';
import { refuseCallbacks } from './methods';
import { ownDataEntries } from './safety';
import type { EvalContext } from './scope';
import { describe, INTRINSICS, isPlainObject, toNumber, toStringValue } from './values';

/** A built-in function: receives the evaluation context for its budget. */
export type Builtin = (ctx: EvalContext, args: readonly unknown[]) => unknown;

function extreme(ctx: EvalContext, args: readonly unknown[], max: boolean): number {
  ctx.charge(args.length);
  let result = max ? -Infinity : Infinity;
  for (const arg of args) {
    const n = toNumber(arg, ctx);
    result = max ? Math.max(result, n) : Math.min(result, n);
  }
  return result;
}

const unaryMath = (fn: (n: number) => number): Builtin => (ctx, args) => fn(toNumber(args[0], ctx));

function entriesOf(ctx: EvalContext, value: unknown, name: string): [string, unknown][] {
  if (Array.isArray(value) && !INTRINSICS.has(value)) {
    ctx.charge(value.length);
    return value.map((element, index): [string, unknown] => [String(index), element]);
  }
  if (isPlainObject(value)) {
    const entries = ownDataEntries(value);
    ctx.charge(entries.length);
    return entries;
  }
  return fault(`${name} expects an object or an array, not ${describe(value)}`);
}

function stringify(ctx: EvalContext, args: readonly unknown[]): unknown {
  const [value, replacer, space] = args;
  if (replacer !== undefined && replacer !== null) fault('JSON.stringify accepts only null as its second argument');
  if (space !== undefined && space !== null && typeof space !== 'number' && typeof space !== 'string') {
    fault(`JSON.stringify indentation must be a number or a string, not ${describe(space)}`);
  }
  let text: string | undefined;
  try {
    text = JSON.stringify(
      value,
      function (_key, v: unknown) {
        ctx.charge(1);
        if (typeof v !== 'object' || v === null) return v;
        if (INTRINSICS.has(v)) fault('JSON.stringify cannot serialise a built-in object');
        if (Array.isArray(v)) return v;
        // Serialise a copy of the own data properties, so no getter ever runs.
        if (isPlainObject(v)) return Object.fromEntries(ownDataEntries(v));
        return fault('JSON.stringify cannot serialise a host object');
      },
      space ?? undefined,
    );
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) fault('JSON.stringify: value is nested too deeply');
    throw err;
  }
  return text === undefined ? undefined : ctx.built(text);
}

function parse(ctx: EvalContext, args: readonly unknown[]): unknown {
  if (args[1] !== undefined) fault('JSON.parse does not accept a reviver');
  const text = toStringValue(args[0], ctx);
  ctx.charge(1 + (text.length >>> 6));
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    return fault(`JSON.parse failed: ${messageOf(err)}`);
  }
}

/** Built-ins take no arrow functions: one would otherwise end up in data. */
function guarded(entries: [string, Builtin][], prefix = ''): Map<string, Builtin> {
  return new Map(
    entries.map(([name, builtin]): [string, Builtin] => [
      name,
      (ctx, args) => {
        refuseCallbacks(prefix + name, args);
        return builtin(ctx, args);
      },
    ]),
  );
}

/** Functions callable by bare name, e.g. Number(x). */
export const BUILTIN_FUNCTIONS: ReadonlyMap<string, Builtin> = guarded([
  ['Number', (ctx, args) => (args.length === 0 ? 0 : toNumber(args[0], ctx))],
  ['String', (ctx, args) => (args.length === 0 ? '' : toStringValue(args[0], ctx))],
  ['Boolean', (_ctx, args) => Boolean(args[0])],
  ['parseInt', (ctx, args) => parseInt(toStringValue(args[0], ctx), args[1] === undefined ? undefined : toNumber(args[1], ctx))],
  ['parseFloat', (ctx, args) => parseFloat(toStringValue(args[0], ctx))],
  [
    'encodeURIComponent',
    (ctx, args) => {
      const text = toStringValue(args[0], ctx);
      try {
        return ctx.built(encodeURIComponent(text));
      } catch (err) {
        return fault(`encodeURIComponent failed: ${messageOf(err)}`);
      }
    },
  ],
]);

/** Namespaces whose functions are callable as Namespace.name(...). */
export const BUILTIN_NAMESPACES: ReadonlyMap<string, ReadonlyMap<string, Builtin>> = new Map([
  [
    'Math',
    guarded(
      [
        ['min', (ctx, args) => extreme(ctx, args, false)],
        ['max', (ctx, args) => extreme(ctx, args, true)],
        ['floor', unaryMath(Math.floor)],
        ['ceil', unaryMath(Math.ceil)],
        ['round', unaryMath(Math.round)],
        ['abs', unaryMath(Math.abs)],
      ],
      'Math.',
    ),
  ],
  [
    'JSON',
    guarded(
      [
        ['stringify', stringify],
        ['parse', parse],
      ],
      'JSON.',
    ),
  ],
  [
    'Object',
    guarded(
      [
        ['keys', (ctx, args) => entriesOf(ctx, args[0], 'Object.keys').map((e) => e[0])],
        ['values', (ctx, args) => entriesOf(ctx, args[0], 'Object.values').map((e) => e[1])],
        ['entries', (ctx, args) => entriesOf(ctx, args[0], 'Object.entries')],
      ],
      'Object.',
    ),
  ],
  ['Array', guarded([['isArray', (_ctx, args) => Array.isArray(args[0])]], 'Array.')],
]);
