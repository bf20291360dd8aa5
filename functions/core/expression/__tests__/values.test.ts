import { describe, expect, it } from 'vitest';
import { compileExpression, compileValue, ExpressionEvaluationError, ExpressionSyntaxError, isBacktickExpression } from '..';
import { scope } from './fixtures';

describe('INTERFACE.md Component rule 3: a value is a specified value, a context field, or an expression', () => {
  it.each<[string, unknown]>([
    ['a string', 'application/json'],
    ['a number', 42],
    ['a boolean', true],
    ['null', null],
    ['an array', ['a', 1]],
    ['an object', { a: { b: [1, 2] } }],
    ['a string with one backtick', '`'],
    ['a string with backticks inside only', 'a `b` c'],
    ['a backtick string with surrounding spaces', ' `x` '],
    ['an object with contextField and another key', { contextField: 'id', other: 1 }],
    ['an object whose contextField is not a string', { contextField: 5 }],
  ])('a specified value (%s) is constant and returned as is', (_what, value) => {
    const compiled = compileValue(value);
    expect(compiled.isConstant).toBe(true);
    expect(compiled.evaluate(scope)).toBe(value);
    expect(compiled.references).toEqual({ contextFields: [], componentResponses: [], dynamic: false });
  });

  it('a context field {"contextField": "name"} reads the named field of the query context', () => {
    const compiled = compileValue({ contextField: 'user' });
    expect(compiled.isConstant).toBe(false);
    expect(compiled.evaluate(scope)).toEqual({ id: 'a@b.c', email: 'a@b.c', favouriteGenre: 'Drama' });
    expect(compiled.references.contextFields).toEqual(['user']);
  });

  it('an expression between backticks is evaluated when a query arrives', () => {
    const compiled = compileValue("`contextField('count') * 2`");
    expect(compiled.isConstant).toBe(false);
    expect(compiled.evaluate(scope)).toBe(4);
  });

  it('an expression without ${ returns its value itself, not a string', () => {
    expect(compileValue("`contextField('ids')`").evaluate(scope)).toEqual(['tt001', 'tt002']);
  });

  it('an expression with ${ is a template literal and yields a string', () => {
    expect(compileValue("`/movies/${contextField('id')}`").evaluate(scope)).toBe('/movies/tt001');
    expect(compileValue('`${contextField("count")}`').evaluate(scope)).toBe('2');
  });

  it('expressions and context fields are found at any depth of objects and arrays', () => {
    const constantPart = { keep: ['me'] };
    const value = {
      headers: [{ header: 'x-user', value: { contextField: 'user' } }, { header: 'x-static', value: 'v' }],
      nested: { deeper: ['`batchNumber + 1`', { contextField: 'id' }, 7] },
      constantPart,
    };
    const compiled = compileValue(value);
    expect(compiled.isConstant).toBe(false);
    const result = compiled.evaluate(scope) as typeof value;
    expect(result).toEqual({
      headers: [
        { header: 'x-user', value: { id: 'a@b.c', email: 'a@b.c', favouriteGenre: 'Drama' } },
        { header: 'x-static', value: 'v' },
      ],
      nested: { deeper: [4, 'tt001', 7] },
      constantPart: { keep: ['me'] },
    });
    expect(result.constantPart).toBe(constantPart);
    expect(compiled.references.contextFields).toEqual(['user', 'id']);
  });

  it('evaluating a value never changes the configured value', () => {
    const value = { a: '`1 + 1`', b: [{ contextField: 'id' }] };
    const copy = structuredClone(value);
    const compiled = compileValue(value);
    compiled.evaluate(scope);
    compiled.evaluate(scope);
    expect(value).toEqual(copy);
  });

  it('a "__proto__" key of a configured object stays an ordinary key', () => {
    const value = JSON.parse('{"__proto__": {"polluted": "`1`"}, "a": "`2`"}') as unknown;
    const result = compileValue(value).evaluate(scope) as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(result, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('an expression that does not compile fails compileValue with an ExpressionSyntaxError naming it', () => {
    expect(() => compileValue({ a: ['`a +`'] })).toThrow(ExpressionSyntaxError);
    expect(() => compileValue({ a: ['`a +`'] })).toThrow('Expression `a +` does not parse: Expected expression after + at character 3');
  });

  it('a context field read without a contextField function is an evaluation error naming the value', () => {
    const compiled = compileValue({ contextField: 'id' });
    expect(() => compiled.evaluate({})).toThrow(ExpressionEvaluationError);
    expect(() => compiled.evaluate({})).toThrow('Unknown function contextField in expression `{"contextField":"id"}`');
  });
});

describe('the backtick rule', () => {
  it.each<[unknown, boolean]>([
    ['`x`', true],
    ['``', true],
    ['`a${b}c`', true],
    ['`', false],
    ['x', false],
    ['`x', false],
    ['x`', false],
    [' `x`', false],
    [42, false],
    [null, false],
    [{ contextField: 'x' }, false],
  ])('isBacktickExpression(%j) is %s', (value, expected) => {
    expect(isBacktickExpression(value)).toBe(expected);
  });

  it('INTERFACE.md Component rule 8: Trigger and Validity Expressions are written without backticks, and with backticks work the same', () => {
    expect(compileExpression('response.length > 0').evaluate(scope)).toBe(true);
    expect(compileExpression('`response.length > 0`').evaluate(scope)).toBe(true);
    expect(compileExpression('  `true`  ').evaluate(scope)).toBe(true);
    expect(compileExpression('true').evaluate(scope)).toBe(true);
  });

  it('trigger criteria in backticks are evaluated over the variable event (INTERFACE.md "Trigger")', () => {
    const criteria = compileExpression("`event.type == 'DataRecordCreated' && event.data.new.startYear < 2000`");
    expect(criteria.evaluate(scope)).toBe(true);
  });

  it('an expression without backticks may itself contain template literals', () => {
    expect(compileExpression("'/a' + `/${contextField('id')}`").evaluate(scope)).toBe('/a/tt001');
  });

  it('the source keeps the text as configured', () => {
    expect(compileExpression(' `response.length` ').source).toBe(' `response.length` ');
  });

  it('an empty expression does not compile', () => {
    expect(() => compileExpression('``')).toThrow('Expression `` does not parse: it is empty');
    expect(() => compileExpression('   ')).toThrow(ExpressionSyntaxError);
  });
});
