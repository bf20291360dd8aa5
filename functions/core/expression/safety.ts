/**
 * The safety rules of the language, in one place: which property names are forbidden, how a
 * property is read (own data properties of plain objects, arrays and strings only), and what
 * a host function may hand back. Nothing here ever calls a getter, a host method or a
 * prototype function.
 */
import { fault } from './errors';
import { METHOD_NAMES } from './methods';
import { describe, INTRINSICS, isPlainObject } from './values';

/** Property names no expression may use, anywhere. */
export const FORBIDDEN_PROPERTIES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const CANONICAL_INDEX = /^(?:0|[1-9][0-9]*)$/;

/** Faults unless `key` is a string or a number that may be used as a property name. */
export function checkKey(key: unknown): string | number {
  if (typeof key === 'string') {
    if (FORBIDDEN_PROPERTIES.has(key)) fault(`Property ${key} is not allowed`);
    return key;
  }
  if (typeof key === 'number') return key;
  return fault(`A property name must be a string or a number, not ${describe(key)}`);
}

/**
 * Reads `object[key]` under the language's rules: indexes must lie inside arrays and strings,
 * a missing own property of a plain object is undefined, and anything inherited, any getter,
 * any function and anything of a host object is an error.
 */
export function readProperty(object: unknown, key: unknown): unknown {
  if (object === undefined || object === null) {
    return fault(`Cannot read property '${typeof key === 'string' || typeof key === 'number' ? key : describe(key)}' of ${object}`);
  }
  const name = checkKey(key);
  switch (typeof object) {
    case 'string':
      return readIndexed(object, name, 'a string', String.prototype, METHOD_NAMES.string);
    case 'number':
    case 'bigint':
      return readPrimitive(object, name, Number.prototype, METHOD_NAMES.number);
    case 'boolean':
      return readPrimitive(object, name, Boolean.prototype, METHOD_NAMES.boolean);
    case 'object':
      break;
    default:
      return fault(`Cannot read property '${name}' of ${describe(object)}`);
  }
  if (Array.isArray(object) && !INTRINSICS.has(object)) {
    return readIndexed(object, name, 'an array', Array.prototype, METHOD_NAMES.array);
  }
  if (!isPlainObject(object)) return fault(`Cannot read property '${name}' of ${describe(object)}`);
  const property = typeof name === 'number' ? String(name) : name;
  const descriptor = Object.getOwnPropertyDescriptor(object, property);
  if (descriptor === undefined) {
    if (property in object) fault(`Property ${property} is not allowed`);
    return undefined;
  }
  if (!('value' in descriptor)) fault(`Property ${property} is an accessor, which expressions may not read`);
  const value: unknown = descriptor.value;
  if (typeof value === 'function') fault(`Property ${property} holds a function, which expressions may not read`);
  if (typeof value === 'object' && value !== null && INTRINSICS.has(value)) fault(`Property ${property} holds a built-in object, which expressions may not read`);
  return value;
}

function readIndexed(
  target: string | readonly unknown[],
  name: string | number,
  kind: string,
  proto: object,
  methods: ReadonlySet<string>,
): unknown {
  let index: number;
  if (typeof name === 'number') index = name;
  else if (name === 'length') return target.length;
  else if (CANONICAL_INDEX.test(name)) index = Number(name);
  else return readInherited(name, kind, proto, methods);
  if (!Number.isInteger(index)) fault(`Index ${index} of ${kind} is not a whole number`);
  if (index < 0) fault(`Index ${index} is before the start of ${kind} of length ${target.length} (use .at(${index}) to count from the end)`);
  if (index >= target.length) fault(`Index ${index} is past the end of ${kind} of length ${target.length}`);
  const value: unknown = target[index];
  if (typeof value === 'function') fault(`Index ${index} holds a function, which expressions may not read`);
  if (typeof value === 'object' && value !== null && INTRINSICS.has(value)) fault(`Index ${index} holds a built-in object, which expressions may not read`);
  return value;
}

function readPrimitive(value: unknown, name: string | number, proto: object, methods: ReadonlySet<string>): unknown {
  return readInherited(String(name), describe(value), proto, methods);
}

function readInherited(name: string, kind: string, proto: object, methods: ReadonlySet<string>): undefined {
  if (methods.has(name)) fault(`Method ${name} of ${kind} can only be called, e.g. .${name}(...)`);
  if (name in proto) fault(`Property ${name} is not allowed on ${kind}`);
  return undefined;
}

/** The own enumerable data properties of a plain object, refusing getters and functions. */
export function ownDataEntries(object: Record<string, unknown>): [string, unknown][] {
  const keys = Object.keys(object);
  const entries: [string, unknown][] = new Array(keys.length);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor === undefined || !('value' in descriptor)) fault(`Property ${key} is an accessor, which expressions may not read`);
    if (typeof descriptor.value === 'function') fault(`Property ${key} holds a function, which expressions may not read`);
    entries[i] = [key, descriptor.value];
  }
  return entries;
}

/** Defines an own property; a `__proto__` key stays an ordinary property and never changes the prototype. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/** Faults unless a host function handed back JSON-like data (never a function, prototype or host object). */
export function checkHostResult(value: unknown, name: string): unknown {
  switch (typeof value) {
    case 'function':
      return fault(`Function ${name} returned a function, which expressions may not hold`);
    case 'symbol':
      return fault(`Function ${name} returned a symbol, which expressions may not hold`);
    case 'object':
      if (value === null) return value;
      if (INTRINSICS.has(value) || (!Array.isArray(value) && !isPlainObject(value))) {
        const what = INTRINSICS.has(value) ? 'a built-in object' : value instanceof Promise ? 'a Promise' : 'a host object';
        return fault(`Function ${name} returned ${what}; only JSON-like data is allowed`);
      }
      return value;
    default:
      return value;
  }
}
