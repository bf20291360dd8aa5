/**
 * What compiled closures call at run time: name resolution (variables, host functions,
 * namespaces, built-ins), method calls, host calls with their error and result checks, and
 * spreads. compile.ts builds the closures; this file is what they run.
 */
import { BUILTIN_FUNCTIONS, BUILTIN_NAMESPACES } from './builtins';
import { EvaluationFault, ExpressionEvaluationError, fault, messageOf } from './errors';
import { findMethod } from './methods';
import { checkHostResult, checkKey, ownDataEntries, setOwn } from './safety';
import type { EvalContext, HostFunction } from './scope';
import { describe, INTRINSICS, isPlainObject } from './values';

/** Returned inside a member/call chain when an optional link (?.) meets null or undefined. */
export const SHORT: unique symbol = Symbol('optional chain short-circuit');

/** Own-property test that no object can override. */
export const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** A bare identifier that is not a variable: explain what it is instead. */
export function unresolved(ctx: EvalContext, name: string): never {
  const functions = ctx.functions;
  const hostValue = functions !== undefined && hasOwn(functions, name) ? functions[name] : undefined;
  if (typeof hostValue === 'function' || (hostValue === undefined && BUILTIN_FUNCTIONS.has(name))) {
    fault(`${name} is a function; call it, e.g. ${name}(...)`);
  }
  if (hostValue !== undefined || BUILTIN_NAMESPACES.has(name)) fault(`${name} holds functions; call one, e.g. ${name}.name(...)`);
  return fault(`${name} is not defined`);
}

export function typeofName(ctx: EvalContext, name: string): string {
  const variables = ctx.variables;
  if (variables !== undefined && hasOwn(variables, name)) return typeof variables[name];
  const functions = ctx.functions;
  if (functions !== undefined && hasOwn(functions, name)) return typeof functions[name] === 'function' ? 'function' : 'object';
  if (BUILTIN_FUNCTIONS.has(name)) return 'function';
  if (BUILTIN_NAMESPACES.has(name)) return 'object';
  return 'undefined';
}

/** name(...): a host function, else a built-in. */
export function callFunction(ctx: EvalContext, name: string, args: unknown[], optional: boolean): unknown {
  const functions = ctx.functions;
  if (functions !== undefined && hasOwn(functions, name)) {
    const fn = functions[name];
    if (typeof fn === 'function') return callHost(ctx, name, fn as HostFunction, undefined, args);
    fault(`${name} is not a function`);
  }
  const builtin = BUILTIN_FUNCTIONS.get(name);
  if (builtin) return builtin(ctx, args);
  if (optional) return SHORT;
  const variables = ctx.variables;
  if (variables !== undefined && hasOwn(variables, name)) fault(`${name} is not a function`);
  return fault(`Unknown function ${name}`);
}

/** namespace.name(...): an own function of a host namespace, else a built-in namespace's function. */
export function callNamespace(ctx: EvalContext, namespace: string, name: unknown, args: unknown[], optional: boolean): unknown {
  const key = checkKey(name);
  const functions = ctx.functions;
  if (functions !== undefined && hasOwn(functions, namespace)) {
    const holder = functions[namespace];
    if ((typeof holder === 'object' && holder !== null) || typeof holder === 'function') {
      const descriptor = Object.getOwnPropertyDescriptor(holder, key);
      if (descriptor !== undefined && typeof descriptor.value === 'function') {
        return callHost(ctx, `${namespace}.${key}`, descriptor.value as HostFunction, holder, args);
      }
    }
    if (optional) return SHORT;
    return fault(`Unknown function ${namespace}.${key}`);
  }
  const builtins = BUILTIN_NAMESPACES.get(namespace);
  if (builtins) {
    const builtin = typeof key === 'string' ? builtins.get(key) : undefined;
    if (builtin) return builtin(ctx, args);
    if (optional) return SHORT;
    return fault(`Unknown function ${namespace}.${key}`);
  }
  return fault(`${namespace} is not defined`);
}

/** receiver.name(...): a whitelisted method of an array, string, number or boolean. */
export function invokeMethod(ctx: EvalContext, receiver: unknown, name: unknown, args: unknown[], optional: boolean): unknown {
  if (receiver === null || receiver === undefined) {
    return fault(`Cannot read property '${typeof name === 'string' || typeof name === 'number' ? name : describe(name)}' of ${receiver}`);
  }
  const key = checkKey(name);
  const method = typeof key === 'string' && !INTRINSICS.has(receiver) ? findMethod(receiver, key) : undefined;
  if (method === undefined) {
    if (optional) return SHORT;
    return fault(`Method ${key} is not allowed on ${describe(receiver)}`);
  }
  return method(ctx, receiver as never, args);
}

/** Calls a host function; whatever it throws becomes an evaluation failure carrying its message. */
export function callHost(ctx: EvalContext, name: string, fn: HostFunction, self: unknown, args: unknown[]): unknown {
  ctx.charge(1);
  let result: unknown;
  try {
    result = Reflect.apply(fn, self, args);
  } catch (err) {
    if (err instanceof EvaluationFault || err instanceof ExpressionEvaluationError) throw err;
    return fault(`${name} failed: ${messageOf(err)}`, err);
  }
  return checkHostResult(result, name);
}

export function spreadIntoList(ctx: EvalContext, out: unknown[], value: unknown): void {
  if (typeof value === 'string') {
    ctx.charge(value.length);
    for (const ch of value) out.push(ch);
    return;
  }
  if (!Array.isArray(value) || INTRINSICS.has(value)) fault(`Cannot spread ${describe(value)} into a list; only arrays and strings can be`);
  ctx.charge(value.length);
  for (let i = 0; i < value.length; i++) out.push(value[i]);
}

export function spreadIntoObject(ctx: EvalContext, out: Record<string, unknown>, value: unknown): void {
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return;
  if (typeof value === 'string' || (Array.isArray(value) && !INTRINSICS.has(value))) {
    const list = value as string | readonly unknown[];
    ctx.charge(list.length);
    for (let i = 0; i < list.length; i++) out[String(i)] = list[i];
    return;
  }
  if (!isPlainObject(value)) fault(`Cannot spread ${describe(value)} into an object`);
  const entries = ownDataEntries(value);
  ctx.charge(entries.length);
  for (const [key, v] of entries) setOwn(out, key, v);
}
