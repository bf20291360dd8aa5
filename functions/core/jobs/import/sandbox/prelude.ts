/**
 * JavaScript evaluated INSIDE the QuickJS context once per worker, after lodash has been loaded
 * as the global `_`. It hides and freezes everything a transformer could reach and returns
 * `makeRunner(...compiledTransformers)`, which the worker calls once per prepared set.
 *
 * It is plain ES2020 text (not TypeScript) because it never runs on the host. `__LIMITS__` is
 * replaced with a JSON object ({stackKiB, memoryMiB}) used only in error messages.
 */
export const SANDBOX_PRELUDE = String.raw`(function (global, limits) {
  'use strict';
  var lodash = global._;
  var noop = function () { return undefined; };
  var quietConsole = { log: noop, info: noop, warn: noop, error: noop, debug: noop, trace: noop };
  Object.defineProperty(global, 'console', { value: quietConsole, writable: false, enumerable: false, configurable: false });
  Object.defineProperty(global, '_', { value: lodash, writable: false, enumerable: false, configurable: false });

  var freeze = Object.freeze, getProto = Object.getPrototypeOf, ownKeys = Reflect.ownKeys;
  var getDesc = Object.getOwnPropertyDescriptor, isArray = Array.isArray, OP = Object.prototype;
  var parse = JSON.parse, stringify = JSON.stringify, objectTag = Object.prototype.toString;

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
  function failure(message) { return stringify({ ok: false, error: clip(message) }); }

  return function makeRunner() {
    var fns = [];
    for (var a = 0; a < arguments.length; a++) {
      if (typeof arguments[a] !== 'function') throw new TypeError('transformers[' + a + '] did not compile to a function');
      fns.push(arguments[a]);
    }
    var n = fns.length;
    var done = [];

    function runOne(line) {
      var k = -1;
      try {
        var v = parse(line);
        for (k = 0; k < n; k++) {
          var f = fns[k];
          v = f(v, lodash);
          if (!isPlain(v)) {
            return failure('transformers[' + k + '] returned ' + typeName(v) + '; a transformer must return a plain object');
          }
        }
        var s = stringify(v);
        if (typeof s !== 'string') return failure('the result of the transformers is not JSON data');
        return '{"ok":true,"value":' + s + '}';
      } catch (e) {
        var where = k < 0 ? 'the record could not be read:' : k < n ? 'transformers[' + k + ']' : 'the result of the transformers could not be serialised as JSON:';
        return failure(where + ' ' + describe(e));
      }
    }
    // Records arrive as one string of JSON texts separated by newlines (JSON.stringify never
    // emits a raw newline); outcomes leave as one JSON array text.
    function run(batch) {
      var lines = batch.split('\n');
      done = [];
      for (var i = 0; i < lines.length; i++) done.push(runOne(lines[i]));
      var out = '[' + done.join(',') + ']';
      done = [];
      return out;
    }
    // After an interrupted run: the outcomes of the records that completed before the interrupt.
    function partial() {
      var out = '[' + done.join(',') + ']';
      done = [];
      return out;
    }
    return [run, partial];
  };
})`;
