import { afterEach, describe, expect, it } from 'vitest';
import { compileExpression, ExpressionEvaluationError, ExpressionSyntaxError, type ExpressionScope } from '..';
import { evaluationError, refusal, run, scope, syntaxError } from './fixtures';

/** Nothing the expressions below do may leave a trace on the built-in prototypes. */
afterEach(() => {
  expect(Object.getOwnPropertyNames(Object.prototype).filter((k) => !BUILTIN_OBJECT_PROTO.has(k))).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
});
const BUILTIN_OBJECT_PROTO = new Set(Object.getOwnPropertyNames(Object.prototype));

describe('forbidden names: __proto__, constructor, prototype (ARCHITECTURE.md "Expressions")', () => {
  it.each([
    'response.constructor',
    "response['constructor']",
    'response.__proto__',
    "response['__proto__']",
    'response[0].prototype',
    '[].map.constructor',
    "''.constructor.constructor('return process')()",
    "''['constructor']['constructor']('return process')()",
    '(1).constructor',
    'true.constructor',
    'Math.constructor',
    'JSON.parse.constructor',
    "contextField.constructor('return process')()",
    '({}).constructor',
    '({__proto__: {polluted: true}})',
    "({'__proto__': {polluted: true}})",
    '({constructor: 1})',
  ])('%s is refused', (text) => {
    const error = refusal(text);
    expect(error.message).toMatch(/Property (constructor|__proto__|prototype) is not allowed|can only be called|holds functions|is a function/);
  });

  it.each([
    ["response[k]", '__proto__'],
    ["response[k]", 'constructor'],
    ["response[0][k]", 'prototype'],
    ["({[k]: {polluted: true}})", '__proto__'],
    ["'x'[k]", 'constructor'],
    ['Math[k](1)', 'constructor'],
    ['_[k]()', '__proto__'],
    ['response[k]()', 'constructor'],
  ])('%s with k = %s is refused while evaluating', (text, k) => {
    const s: ExpressionScope = { ...scope, variables: { ...scope.variables, k } };
    expect(evaluationError(text, s).reason).toMatch(/^Property (__proto__|constructor|prototype) is not allowed$/);
  });

  it('a computed key built from pieces is checked too', () => {
    expect(evaluationError("response['__pro' + 'to__']").reason).toBe('Property __proto__ is not allowed');
    expect(evaluationError("''[['constr', 'uctor'].join('')]").reason).toBe('Property constructor is not allowed');
  });
});

describe('no host object, function or prototype can be reached from expression text', () => {
  it.each([
    ['process', 'process is not defined'],
    ['globalThis', 'globalThis is not defined'],
    ['global', 'global is not defined'],
    ['window', 'window is not defined'],
    ["require('fs')", 'Unknown function require'],
    ["import('fs')", 'Unknown function import'],
    ["eval('1')", 'Unknown function eval'],
    ['Object.getPrototypeOf({})', 'Unknown function Object.getPrototypeOf'],
    ["Object.defineProperty({}, 'x', {})", 'Unknown function Object.defineProperty'],
    ['Object.assign({}, {})', 'Unknown function Object.assign'],
    ["Reflect.get({}, 'x')", 'Reflect is not defined'],
    ['toString.call(1)', 'toString is not defined'],
    ['toString()', 'Unknown function toString'],
    ['valueOf', 'valueOf is not defined'],
    ['hasOwnProperty', 'hasOwnProperty is not defined'],
    ["contextField.call(null, 'id')", 'Unknown function contextField.call'],
    ["contextField.apply(null, ['id'])", 'Unknown function contextField.apply'],
    ["contextField.bind(null, 'id')", 'Unknown function contextField.bind'],
    ["_.get.call(null, {}, 'a')", '_ holds functions; call one, e.g. _.name(...)'],
    ['Math', 'Math holds functions; call one, e.g. Math.name(...)'],
    ['contextField', 'contextField is a function; call it, e.g. contextField(...)'],
    ['String', 'String is a function; call it, e.g. String(...)'],
    ['response.map', 'Method map of an array can only be called, e.g. .map(...)'],
    ["'x'.toString", 'Method toString of a string can only be called, e.g. .toString(...)'],
    ['response.push', 'Property push is not allowed on an array'],
    ['response[0].toString', 'Property toString is not allowed'],
    ['response[0].hasOwnProperty', 'Property hasOwnProperty is not allowed'],
    ['response[0].__lookupGetter__', 'Property __lookupGetter__ is not allowed'],
    ['(1).valueOf', 'Property valueOf is not allowed on a number'],
    ["'x'.concat", 'Property concat is not allowed on a string'],
    ['response[0].valueOf()', 'Method valueOf is not allowed on an object'],
    ["response[0].hasOwnProperty('id')", 'Method hasOwnProperty is not allowed on an object'],
  ])('%s is refused: %s', (text, reason) => {
    expect(evaluationError(text).reason).toBe(reason);
  });

  it.each([
    ['this', '`this` is not available'],
    ['this.constructor', '`this` is not available'],
    ["Function('return process')()", 'Only functions and methods can be called'],
    ["contextField.bind(null)('id')", 'Only functions and methods can be called'],
    ['[x => x]', 'Arrow functions are only allowed as call arguments, e.g. list.map(x => x.id)'],
    ['({f: x => x})', 'Arrow functions are only allowed as call arguments, e.g. list.map(x => x.id)'],
    ['response.map(x => y => y)', 'Arrow functions are only allowed as call arguments, e.g. list.map(x => x.id)'],
    ['response.map(f => f())', 'f is not a function'],
    ['new Function("x")', 'does not parse: expected one expression, found 2'],
    ['/x/.test("x")', 'Expression `/x/.test("x")` does not parse'],
  ])('%s does not compile', (text, reason) => {
    expect(syntaxError(text).message).toContain(reason);
  });

  it('a host function returning a function, a prototype or a host object is refused', () => {
    // The engine reads context fields as context[String(name)]: these names reach Object.prototype members.
    expect(evaluationError("contextField('__proto__')").reason).toBe('Function contextField returned a built-in object; only JSON-like data is allowed');
    expect(evaluationError("contextField('constructor')").reason).toBe('Function contextField returned a function, which expressions may not hold');
    expect(evaluationError("contextField('toString')").reason).toBe('Function contextField returned a function, which expressions may not hold');
    expect(evaluationError("_.get({}, '__proto__')").reason).toBe('Function _.get returned a built-in object; only JSON-like data is allowed');
    expect(evaluationError("_.get([], 'constructor')").reason).toBe('Function _.get returned a function, which expressions may not hold');
    expect(evaluationError("_.get(response, '__proto__')").reason).toBe('Function _.get returned a built-in object; only JSON-like data is allowed');
    expect(evaluationError('now()', { functions: { now: () => new Date() } }).reason).toBe('Function now returned a host object; only JSON-like data is allowed');
    expect(evaluationError('g()', { functions: { g: () => globalThis } }).reason).toBe('Function g returned a built-in object; only JSON-like data is allowed');
  });

  it('prototype pollution through _-style host functions cannot reach Object.prototype', () => {
    const writes: unknown[] = [];
    const s: ExpressionScope = { functions: { _: { set: (target: unknown) => writes.push(target) } } };
    for (const text of ["_.set({}.__proto__, 'polluted', 1)", "_.set(({})['__proto__'], 'polluted', 1)", "_.set([].constructor.prototype, 'polluted', 1)"]) {
      expect(refusal(text, s)).toBeDefined();
    }
    expect(writes).toEqual([]);
  });

  it('JSON with a "__proto__" key stays data: spreading it never changes a prototype', () => {
    const result = run(`({...JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')})`) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['__proto__', 'a']);
    expect(syntaxError(`JSON.parse('{"__proto__": 1}').__proto__`).message).toMatch(/^Property __proto__ is not allowed/);
    expect(evaluationError(`JSON.parse('{"__proto__": 1}')[k]`, { variables: { k: '__proto__' } }).reason).toBe('Property __proto__ is not allowed');
  });

  it('getters are never called: reading, spreading, listing or serialising them is refused', () => {
    let calls = 0;
    const guarded = {
      plain: 1,
      get secret() {
        calls++;
        return 'leaked';
      },
    };
    const s: ExpressionScope = { variables: { guarded } };
    expect(evaluationError('guarded.secret', s).reason).toBe('Property secret is an accessor, which expressions may not read');
    expect(evaluationError("guarded['secret']", s).reason).toBe('Property secret is an accessor, which expressions may not read');
    expect(evaluationError('({...guarded})', s).reason).toBe('Property secret is an accessor, which expressions may not read');
    expect(evaluationError('Object.values(guarded)', s).reason).toBe('Property secret is an accessor, which expressions may not read');
    expect(evaluationError('JSON.stringify(guarded)', s).reason).toBe('Property secret is an accessor, which expressions may not read');
    expect(evaluationError('JSON.stringify({g: guarded})', s).reason).toBe('Property secret is an accessor, which expressions may not read');
    expect(run('guarded.plain', s)).toBe(1);
    expect(calls).toBe(0);
  });

  it('functions and host objects held in data are refused, not called or returned', () => {
    let calls = 0;
    const s: ExpressionScope = {
      variables: {
        data: { fn: () => calls++, list: [() => calls++], when: new Date(0), map: new Map([['a', 1]]) },
        fnVariable: () => calls++,
      },
    };
    expect(evaluationError('data.fn', s).reason).toBe('Property fn holds a function, which expressions may not read');
    expect(evaluationError('data.fn()', s).reason).toBe('Method fn is not allowed on an object');
    expect(evaluationError('data.list[0]', s).reason).toBe('Index 0 holds a function, which expressions may not read');
    expect(evaluationError('data.when.getTime()', s).reason).toBe('Method getTime is not allowed on a host object');
    expect(refusal('data.when.constructor', s).message).toMatch(/^Property constructor is not allowed/);
    expect(evaluationError("data.map.get('a')", s).reason).toBe('Method get is not allowed on a host object');
    expect(evaluationError('data.map.size', s).reason).toBe("Cannot read property 'size' of a host object");
    expect(evaluationError('fnVariable', s).reason).toBe('Variable fnVariable holds a function, which expressions may not read');
    expect(evaluationError('fnVariable()', s).reason).toBe('fnVariable is not a function');
    expect(evaluationError('`${data.when}`', s).reason).toBe('Cannot convert a host object to a string');
    expect(calls).toBe(0);
  });

  it('a namespace exposes only its own function properties, never inherited ones', () => {
    class Helper {
      own = () => 'own';
      inherited(): string {
        return 'inherited';
      }
    }
    const s: ExpressionScope = { functions: { h: new Helper() as unknown as Record<string, (...args: unknown[]) => unknown> } };
    expect(run('h.own()', s)).toBe('own');
    expect(evaluationError('h.inherited()', s).reason).toBe('Unknown function h.inherited');
    expect(evaluationError('h.toString()', s).reason).toBe('Unknown function h.toString');
    expect(evaluationError('h.hasOwnProperty("own")', s).reason).toBe('Unknown function h.hasOwnProperty');
  });

  it('an expression cannot change the data it reads', () => {
    const data = { list: [3, 1, 2], obj: { a: 1 } };
    const snapshot = structuredClone(data);
    const s: ExpressionScope = { variables: { data } };
    for (const text of ['data.list.sort()', 'data.list.reverse()', '({...data.obj, a: 2})', 'data.list.concat([4])', 'data.list.map(x => x + 1)']) run(text, s);
    for (const text of ['data.obj.a = 2', 'data.list.push(4)', 'data.list.splice(0)', 'data.list.fill(0)', 'data.list.copyWithin(0, 1)']) {
      expect(() => run(text, s)).toThrow(/does not parse|is not allowed/);
    }
    expect(data).toEqual(snapshot);
  });

  it.each([
    ['[1].concat(x => 1)', 'concat does not take an arrow function as argument 1'],
    ['[1].includes(x => x)', 'includes does not take an arrow function as argument 1'],
    ['[1].reduce((a, b) => a, x => x)', 'reduce does not take an arrow function as argument 2'],
    ["'a'.replace(x => x, 'b')", 'replace does not take an arrow function as argument 1'],
    ['JSON.stringify(x => x)', 'JSON.stringify does not take an arrow function as argument 1'],
    ['Math.max(x => x)', 'Math.max does not take an arrow function as argument 1'],
    ['String(x => x)', 'String does not take an arrow function as argument 1'],
  ])('an arrow function given where no function is called never becomes data: %s', (text, reason) => {
    expect(evaluationError(text).reason).toBe(reason);
  });

  it('the result of an evaluation is never a function', () => {
    const identity = { id: (x: unknown) => x };
    expect(evaluationError('_.id(x => x)', { functions: { _: identity } }).reason).toBe('Function _.id returned a function, which expressions may not hold');
  });

  it('only ExpressionSyntaxError and ExpressionEvaluationError ever come out', () => {
    for (const text of ["''.constructor.constructor('return process')()", 'process.exit(1)', 'this', 'a +', 'response[99]']) {
      try {
        compileExpression(text).evaluate(scope);
      } catch (err) {
        expect(err instanceof ExpressionSyntaxError || err instanceof ExpressionEvaluationError).toBe(true);
      }
    }
  });
});
