/**
 * JavaScript evaluated INSIDE the QuickJS context once per worker, after lodash has been loaded
 * as the global `_`. It hides and freezes everything a transformer could reach and returns
 * `makeRunner(...compiledTransformers)`, which the worker calls once per prepared set.
 *
 * It is plain ES2020 text (not TypeScript) because it never runs on the host. It is called as
 * (globalThis, {stackKiB, memoryMiB}); the limits are used only in error messages.
 */
export const SANDBOX_PRELUDE = String.raw`(function (global, limits) {
  'use strict';
  var lodash = global._;
  var noop = function () { return undefined; };
  var quietConsole = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop };
  Object.defineProperty(global, 'console', { value: quietConsole, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(global, '_', { value: lodash, writable: false, enumerable: false, configurable: false });

  var freeze = Object.freeze, getProto = Object.getPrototypeOf, ownKeys = Reflect.ownKeys;
  var getDesc = Object.getOwnPropertyDescriptor, defineProperty = Object.defineProperty;
  var isArray = Array.isArray, OP = Object.prototype, hasOwn = Object.prototype.hasOwnProperty;
  var parse = JSON.parse, stringify = JSON.stringify, objectTag = Object.prototype.toString;

  // Fast paths for the hottest lodash calls, used only for the simple case (a plain object and
  // a single plain key, as lodash's own isKey /^\w*$/ decides) and reproducing lodash's steps
  // for it (banned keys, SameValueZero assignValue, 'in' for pick); anything else goes to lodash.
  var plainKey = /^\w*$/;
  var lodashGet = lodash.get, lodashSet = lodash.set, lodashHas = lodash.has, lodashPick = lodash.pick;
  function isPlainRecord(o) {
    if (o === null || typeof o !== 'object' || isArray(o)) return false;
    var p = getProto(o);
    return p === OP || p === null;
  }
  var simpleKeys = new Map();
  function isSimpleKey(k) {
    if (typeof k !== 'string') return false;
    var known = simpleKeys.get(k);
    if (known === undefined) {
      known = plainKey.test(k);
      if (simpleKeys.size < 10000) simpleKeys.set(k, known);
    }
    return known;
  }
  function isBannedKey(k) { return k === '__proto__' || k === 'constructor' || k === 'prototype'; }
  function sameValueZero(a, b) { return a === b || (a !== a && b !== b); }
  function assignValue(object, key, value) {
    if (!(hasOwn.call(object, key) && sameValueZero(object[key], value)) || (value === undefined && !(key in object))) {
      object[key] = value;
    }
  }
  lodash.get = function get(object, path, defaultValue) {
    if (!isPlainRecord(object) || !isSimpleKey(path)) return lodashGet.apply(lodash, arguments);
    var result = object[path];
    return result === undefined ? defaultValue : result;
  };
  lodash.set = function set(object, path, value) {
    if (arguments.length !== 3 || !isPlainRecord(object) || !isSimpleKey(path)) return lodashSet.apply(lodash, arguments);
    if (!isBannedKey(path)) assignValue(object, path, value);
    return object;
  };
  lodash.has = function has(object, path) {
    if (!isPlainRecord(object) || !isSimpleKey(path)) return lodashHas.apply(lodash, arguments);
    return hasOwn.call(object, path);
  };
  lodash.pick = function pick(object, paths) {
    if (arguments.length !== 2 || !isPlainRecord(object) || !isArray(paths)) return lodashPick.apply(lodash, arguments);
    for (var i = 0; i < paths.length; i++) if (!isSimpleKey(paths[i])) return lodashPick.apply(lodash, arguments);
    var result = {};
    for (var j = 0; j < paths.length; j++) {
      var key = paths[j], value = object[key];
      if (key in object && !isBannedKey(key)) assignValue(result, key, value);
    }
    return result;
  };

  // Frozen prototypes make 'obj.toString = x' fail (the "override mistake"); as SES does, turn
  // their data properties into accessors whose setter defines an own property on the receiver.
  function tameOverrides(proto) {
    var keys = ownKeys(proto);
    for (var i = 0; i < keys.length; i++) {
      var desc = getDesc(proto, keys[i]);
      if (!('value' in desc) || !desc.configurable) continue;
      (function (key, value) {
        defineProperty(proto, key, {
          get: function () { return value; },
          set: function (v) {
            if (this === proto) throw new TypeError('Cannot assign to read only property ' + String(key));
            defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
          },
          enumerable: desc.enumerable,
          configurable: false,
        });
      })(keys[i], desc.value);
    }
  }
  // Only the prototypes records and errors inherit from: taming Array/Function.prototype would
  // put a getter call on every push/call.
  tameOverrides(Object.prototype);
  ['Error', 'EvalError', 'RangeError', 'ReferenceError', 'SyntaxError', 'TypeError', 'URIError', 'InternalError', 'AggregateError']
    .forEach(function (name) { if (typeof global[name] === 'function') tameOverrides(global[name].prototype); });

  // Freeze every object reachable from the roots (own properties, accessors, prototypes), so a
  // transformer cannot change a built-in, lodash or the global object for the records after it.
  var seen = new Set();
  function deepFreeze(root) {
    var stack = [root];
    while (stack.length > 0) {
      var o = stack.pop();
      if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) continue;
      seen.add(o);
      freeze(o);
      stack.push(getProto(o));
      var keys = ownKeys(o);
      for (var i = 0; i < keys.length; i++) {
        var d = getDesc(o, keys[i]);
        if (d === undefined) continue;
        if ('value' in d) stack.push(d.value); else { stack.push(d.get); stack.push(d.set); }
      }
    }
  }
  // Intrinsics that are not reachable from a global property by name.
  var hidden = [
    global,
    function* () {}, async function () {}, async function* () {},
    (function* () {})(), (async function* () {})(),
    [][Symbol.iterator](), new Map()[Symbol.iterator](), new Set()[Symbol.iterator](), ''[Symbol.iterator](),
    /x/g[Symbol.matchAll](''), getProto(Int8Array), Promise.resolve(),
    getDesc(Function.prototype, 'caller'),
    (function () { return arguments; })(),
  ];
  if (typeof Iterator === 'function' && typeof Iterator.prototype.map === 'function') {
    hidden.push([].values().map(function (x) { return x; }));
  }
  if (typeof Iterator === 'function' && typeof Iterator.from === 'function') {
    hidden.push(Iterator.from({ next: function () { return { done: true }; } }));
  }
  for (var h = 0; h < hidden.length; h++) deepFreeze(hidden[h]);

  function typeName(v) {
    if (v === null) return 'null';
    if (v === undefined) return 'undefined';
    if (isArray(v)) return 'an array';
    if (typeof v !== 'object') return 'a ' + typeof v;
    return 'a non-plain object (' + objectTag.call(v) + ')';
  }
  function isPlain(v) {
    if (v === null || typeof v !== 'object' || isArray(v)) return false;
    var p = getProto(v);
    return p === OP || p === null;
  }
  function clip(s) { return s.length > 1000 ? s.slice(0, 1000) + '...' : s; }
  function describe(e) {
    try {
      if (e !== null && typeof e === 'object' && typeof e.message === 'string') {
        var name = typeof e.name === 'string' && e.name !== '' ? e.name : 'Error';
        if (name === 'InternalError' && e.message === 'stack overflow') {
          return 'exceeded the maximum stack size of ' + limits.stackKiB + ' KiB (InternalError: stack overflow)';
        }
        if (name === 'InternalError' && e.message === 'out of memory') {
          return 'exceeded the memory limit of ' + limits.memoryMiB + ' MiB (InternalError: out of memory)';
        }
        return 'threw ' + name + ': ' + e.message;
      }
      return 'threw ' + typeName(e) + ': ' + String(e);
    } catch (e2) {
      return 'threw a value that cannot be described';
    }
  }

  return function makeRunner() {
    var fns = [];
    for (var a = 0; a < arguments.length; a++) {
      if (typeof arguments[a] !== 'function') throw new TypeError('transformers[' + a + '] did not compile to a function');
      fns.push(arguments[a]);
    }
    var n = fns.length;
    var values = [];
    var errors = {};
    var completed = 0;

    // Returns the record's final value, or sets errors[i] and returns null.
    function transform(i, v) {
      var k = 0;
      try {
        for (k = 0; k < n; k++) {
          var f = fns[k];
          v = f(v, lodash);
          if (!isPlain(v)) {
            errors[i] = clip('transformers[' + k + '] returned ' + typeName(v) + '; a transformer must return a plain object');
            return null;
          }
        }
        return v;
      } catch (e) {
        errors[i] = clip('transformers[' + k + '] ' + describe(e));
        return null;
      }
    }

    // Output: JSON text of [values, errors] for the completed records; values[i] is null when
    // errors[i] holds the reason. One JSON.stringify for the batch; if that throws (a cycle, a
    // BigInt, a throwing toJSON...), each value is serialised on its own to find the culprit.
    function finish() {
      var done = completed === values.length ? values : values.slice(0, completed);
      try {
        return stringify([done, errors]);
      } catch (e) {
        var parts = new Array(done.length);
        for (var i = 0; i < done.length; i++) {
          var text = 'null';
          if (done[i] !== null) {
            try {
              var s = stringify(done[i]);
              if (typeof s === 'string') text = s; else errors[i] = 'the result of the transformers is not JSON data';
            } catch (e2) {
              errors[i] = clip('the result of the transformers could not be serialised as JSON: ' + describe(e2));
            }
          }
          parts[i] = text;
        }
        return '[[' + parts.join(',') + '],' + stringify(errors) + ']';
      }
    }

    // Input: a JSON array text whose elements are separated by "\n," (JSON.stringify never emits
    // a raw newline). Parsed in one call; if that fails (a record nested too deeply for the
    // stack, say), each element is parsed on its own so only the bad record fails.
    function run(batch) {
      var records = null, lines = null;
      try { records = parse(batch); } catch (e) { records = null; }
      if (records === null || !isArray(records)) lines = batch.slice(1, -1).split('\n,');
      var count = records !== null ? records.length : lines.length;
      values = new Array(count);
      errors = {};
      completed = 0;
      for (var i = 0; i < count; i++) {
        if (records !== null) {
          values[i] = transform(i, records[i]);
          records[i] = undefined;
        } else {
          var record;
          try { record = parse(lines[i]); } catch (e) {
            errors[i] = clip('the record could not be read: ' + describe(e));
            values[i] = null;
            completed = i + 1;
            continue;
          }
          values[i] = transform(i, record);
        }
        completed = i + 1;
      }
      return partial();
    }
    // Also called after an interrupted run: the records that completed before the interrupt.
    function partial() {
      var out = finish();
      values = [];
      errors = {};
      completed = 0;
      return out;
    }
    return [run, partial];
  };
})`;
