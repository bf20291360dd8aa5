/**
 * The operators of the language with JavaScript's semantics, except that objects are turned
 * into primitives by values.ts (no valueOf/toString of host code ever runs) and a string
 * built with + is checked against the size limit.
 */
import type { EvalContext } from './scope';
import { toNumber, toPrimitive } from './values';

/** A binary operator applied to two evaluated operands. */
export type BinaryOperator = (ctx: EvalContext, left: unknown, right: unknown) => unknown;

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

function add(ctx: EvalContext, left: unknown, right: unknown): unknown {
  if (typeof left === 'number' && typeof right === 'number') return left + right;
  const a = toPrimitive(left, ctx) as string;
  const b = toPrimitive(right, ctx) as string;
  const result: unknown = a + b;
  if (typeof result === 'string' && result.length > ctx.maxStringLength) ctx.checkLength(result.length);
  return result;
}

const arithmetic =
  (op: (a: number, b: number) => number): BinaryOperator =>
  (ctx, left, right) =>
    typeof left === 'number' && typeof right === 'number' ? op(left, right) : op(toNumber(left, ctx), toNumber(right, ctx));

const relational =
  (op: (a: string | number, b: string | number) => boolean): BinaryOperator =>
  (ctx, left, right) =>
    op(toPrimitive(left, ctx) as string | number, toPrimitive(right, ctx) as string | number);

function looseEquals(ctx: EvalContext, left: unknown, right: unknown): boolean {
  const leftObject = isObject(left);
  const rightObject = isObject(right);
  if (leftObject && rightObject) return left === right;
  if (leftObject) return right !== null && right !== undefined && toPrimitive(left, ctx) == right;
  if (rightObject) return left !== null && left !== undefined && left == toPrimitive(right, ctx);
  return left == right;
}

/** The binary operators the language supports (&&, || and ?? are compiled separately: they short-circuit). */
export const BINARY_OPERATORS: ReadonlyMap<string, BinaryOperator> = new Map<string, BinaryOperator>([
  ['+', add],
  ['-', arithmetic((a, b) => a - b)],
  ['*', arithmetic((a, b) => a * b)],
  ['/', arithmetic((a, b) => a / b)],
  ['%', arithmetic((a, b) => a % b)],
  ['<', relational((a, b) => a < b)],
  ['<=', relational((a, b) => a <= b)],
  ['>', relational((a, b) => a > b)],
  ['>=', relational((a, b) => a >= b)],
  ['==', looseEquals],
  ['!=', (ctx, l, r) => !looseEquals(ctx, l, r)],
  ['===', (_ctx, l, r) => l === r],
  ['!==', (_ctx, l, r) => l !== r],
]);

/** Operators that evaluate their right side only when needed. */
export const SHORT_CIRCUIT_OPERATORS: ReadonlySet<string> = new Set(['&&', '||', '??']);

/** The unary operators (typeof is compiled separately: an unknown identifier is 'undefined' there). */
export const UNARY_OPERATORS: ReadonlyMap<string, (ctx: EvalContext, value: unknown) => unknown> = new Map<
  string,
  (ctx: EvalContext, value: unknown) => unknown
>([
  ['-', (ctx: EvalContext, v: unknown) => (typeof v === 'number' ? -v : -toNumber(v, ctx))],
  ['+', (ctx: EvalContext, v: unknown) => toNumber(v, ctx)],
  ['!', (_ctx: EvalContext, v: unknown) => !v],
  ['typeof', (_ctx: EvalContext, v: unknown) => typeof v],
]);
