import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileExpression, compileValue, ExpressionEvaluationError, ExpressionSyntaxError, type ExpressionScope } from '..';
import { context, lodashLike, movies } from './fixtures';

/**
 * Property-based checks of the safety promise: whatever the text, compiling either succeeds
 * or throws ExpressionSyntaxError, evaluating either returns JSON-like data or throws
 * ExpressionEvaluationError, every run is bounded, and nothing is ever polluted.
 */

const responses: Record<string, unknown> = { movies, empty: [] };
const fuzzScope: ExpressionScope = {
  variables: {
    response: movies,
    event: { type: 'DataRecordUpdated', data: { old: movies[1], new: movies[0] } },
    batchNumber: 2,
    responseBody: { items: [{ id: 1 }, { id: 2 }], next: null, total: 2 },
    x: 2,
    i: 0,
  },
  functions: {
    // Engine-style readers: they hand out prototype members for names like '__proto__' unless guarded.
    contextField: (name: unknown) => context[String(name)],
    componentResponse: (code: unknown) => responses[String(code)],
    _: { get: lodashLike.get },
  },
  limits: { maxSteps: 20_000, maxStringLength: 100_000 },
};

const FORBIDDEN_VALUES = new Set<unknown>([Object.prototype, Array.prototype, Function.prototype, String.prototype, globalThis, process, Function, Object]);

/** Throws unless the value is made only of primitives, plain objects and arrays, all data properties. */
function assertJsonLike(root: unknown): void {
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    const type = typeof value;
    if (type === 'function' || type === 'symbol' || type === 'bigint') throw new Error(`result holds a ${type}`);
    if (type !== 'object' || value === null) continue;
    const object = value as object;
    if (seen.has(object)) continue;
    seen.add(object);
    if (FORBIDDEN_VALUES.has(object)) throw new Error('result holds a built-in object');
    const proto = Object.getPrototypeOf(object);
    const ok = Array.isArray(object) ? proto === Array.prototype : proto === Object.prototype || proto === null;
    if (!ok) throw new Error('result holds a non-plain object');
    for (const key of Object.getOwnPropertyNames(object)) {
      const descriptor = Object.getOwnPropertyDescriptor(object, key)!;
      if (!('value' in descriptor)) throw new Error(`result has an accessor ${key}`);
      stack.push(descriptor.value);
    }
  }
}

/** The property: syntax error, evaluation error, or JSON-like data; nothing else. */
function checkText(text: string): void {
  let compiled;
  try {
    compiled = compileExpression(text);
  } catch (err) {
    if (!(err instanceof ExpressionSyntaxError)) throw new Error(`compiling ${JSON.stringify(text)} threw ${String(err)}`);
    return;
  }
  try {
    assertJsonLike(compiled.evaluate(fuzzScope));
  } catch (err) {
    if (!(err instanceof ExpressionEvaluationError)) throw new Error(`evaluating ${JSON.stringify(text)} threw ${String(err)}`);
  }
}

const METHODS = [
  'map', 'filter', 'find', 'findIndex', 'some', 'every', 'includes', 'indexOf', 'join', 'slice', 'concat', 'flat', 'flatMap',
  'at', 'reduce', 'reverse', 'sort', 'toLowerCase', 'toUpperCase', 'trim', 'startsWith', 'endsWith', 'split', 'replace',
  'padStart', 'padEnd', 'repeat', 'charAt', 'toFixed', 'toString', 'push', 'call', 'apply', 'bind', 'valueOf', 'hasOwnProperty',
] as const;
const OPERATORS = ['+', '-', '*', '/', '%', '==', '===', '!=', '!==', '<', '<=', '>', '>=', '&&', '||', '??'] as const;
const PROPERTIES = ['id', 'length', 'data', 'new', 'items', 'genres', 'next', 'constructor', '__proto__', 'prototype', 'toString', 'map', 'x', '0'] as const;
const FUNCTIONS = [
  'contextField', 'componentResponse', '_.get', 'Math.max', 'Math.min', 'Math.floor', 'JSON.stringify', 'JSON.parse', 'Object.keys',
  'Object.values', 'Object.entries', 'Array.isArray', 'String', 'Number', 'Boolean', 'parseInt', 'parseFloat', 'encodeURIComponent',
  'unknownFn', 'Object.getPrototypeOf', 'Function', 'require',
] as const;
const ATOMS = [
  'response', 'event', 'batchNumber', 'responseBody', 'x', 'i', 'undefined', 'null', 'true', 'false', '0', '1', '-1', '3', '1e3', '0.5',
  "'id'", "'user'", "'ids'", "'movies'", "'a,b'", "''", "'__proto__'", "'constructor'", "'toString'", '[]', '({})', 'process', 'globalThis',
] as const;

/** Expressions built from the language's grammar: mostly valid, so evaluation gets exercised. */
const { expr } = fc.letrec<{ expr: string; arrow: string }>((tie) => ({
  expr: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'expr' },
    fc.constantFrom(...ATOMS),
    fc.tuple(tie('expr'), fc.constantFrom(...PROPERTIES), fc.boolean()).map(([e, p, optional]) => `(${e})${optional ? '?.' : '.'}${p}`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a})[${b}]`),
    fc.tuple(fc.constantFrom(...FUNCTIONS), fc.array(tie('expr'), { maxLength: 3 })).map(([f, args]) => `${f}(${args.join(', ')})`),
    fc
      .tuple(tie('expr'), fc.constantFrom(...METHODS), fc.array(fc.oneof(tie('expr'), tie('arrow')), { maxLength: 2 }))
      .map(([e, m, args]) => `(${e}).${m}(${args.join(', ')})`),
    fc.tuple(tie('expr'), fc.constantFrom(...OPERATORS), tie('expr')).map(([a, op, b]) => `(${a}) ${op} (${b})`),
    fc.tuple(fc.constantFrom('!', '-', '+', 'typeof '), tie('expr')).map(([op, e]) => `${op}(${e})`),
    fc.tuple(tie('expr'), tie('expr'), tie('expr')).map(([a, b, c]) => `(${a}) ? (${b}) : (${c})`),
    fc.array(fc.oneof(tie('expr'), tie('expr').map((e) => `...(${e})`)), { maxLength: 3 }).map((es) => `[${es.join(', ')}]`),
    fc
      .array(fc.tuple(fc.constantFrom('a', "'b c'", '[x]', 'id', '__proto__', '...'), tie('expr')), { maxLength: 3 })
      .map((ps) => `({${ps.map(([k, v]) => (k === '...' ? `...(${v})` : `${k}: ${v}`)).join(', ')}})`),
    fc.array(tie('expr'), { maxLength: 2 }).map((es) => `\`t${es.map((e) => `\${${e}}-`).join('')}\``),
  ),
  arrow: fc.tuple(fc.constantFrom('x', '(x, i)', '()', 'acc'), tie('expr')).map(([params, body]) => `${params} => ${body}`),
}));

const TOKENS = [
  ...ATOMS, ...OPERATORS, ...PROPERTIES, ...METHODS, 'contextField', 'componentResponse', '_', 'Math', 'JSON', 'this', 'new', 'typeof',
  '!', '?', ':', '...', '=>', '=', '|', '**', '~', '(', ')', '[', ']', '{', '}', ',', '.', '?.', ';', '`', '${', '\\', '"', "'", ' ', '\n',
];
/** Token soup: random sequences of the language's tokens, with and without spaces. */
const tokenSoup = fc
  .tuple(fc.array(fc.constantFrom(...TOKENS), { maxLength: 30 }), fc.constantFrom('', ' '))
  .map(([tokens, separator]) => tokens.join(separator));

/** Any string, in both character units, sometimes in backticks. */
const anyText = fc
  .tuple(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 })), fc.boolean())
  .map(([s, ticks]) => (ticks ? `\`${s}\`` : s));

describe('fuzz: compiling and evaluating never escapes the two expression errors and never returns anything but data', () => {
  afterAll(() => {
    expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(Object.getOwnPropertyNames(Object.getPrototypeOf({})));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('arbitrary strings', () => {
    fc.assert(fc.property(anyText, (text) => checkText(text)), { numRuns: 1500 });
  });

  it('strings assembled from tokens, identifiers, operators and brackets', () => {
    fc.assert(fc.property(tokenSoup, (text) => checkText(text)), { numRuns: 2000 });
  });

  it('expressions generated from the grammar, plain and in backticks', () => {
    fc.assert(
      fc.property(expr, fc.boolean(), (text, ticks) => checkText(ticks ? `\`${text}\`` : text)),
      { numRuns: 2000 },
    );
  });

  it('the grammar generator produces mostly compilable expressions (the fuzz exercises evaluation)', () => {
    const samples = fc.sample(expr, 300);
    const compiled = samples.filter((text) => {
      try {
        compileExpression(text);
        return true;
      } catch {
        return false;
      }
    });
    expect(compiled.length).toBeGreaterThan(150);
  });

  it('configured values mixing JSON, {contextField} objects and backtick expressions', () => {
    const leaf = fc.oneof(
      fc.jsonValue({ maxDepth: 1 }),
      expr.map((e) => `\`${e}\``),
      fc.constantFrom('id', 'user', '__proto__', 'constructor', 'missing').map((contextField) => ({ contextField })),
    );
    const value = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof(
        { maxDepth: 3, depthIdentifier: 'value' },
        leaf,
        fc.array(tie('node'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom('a', 'b', 'value', '__proto__', 'contextField'), tie('node'), { maxKeys: 3 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (configured) => {
        let compiled;
        try {
          compiled = compileValue(configured);
        } catch (err) {
          if (!(err instanceof ExpressionSyntaxError)) throw err;
          return;
        }
        try {
          const result = compiled.evaluate(fuzzScope);
          if (compiled.isConstant) expect(result).toBe(configured);
          else assertJsonLike(result);
        } catch (err) {
          if (!(err instanceof ExpressionEvaluationError)) throw err;
        }
      }),
      { numRuns: 500 },
    );
  });
});
