import { describe, expect, it } from 'vitest';
import { compileExpression, ExpressionEvaluationError, ExpressionSyntaxError, type ExpressionScope } from '..';
import { evaluationError, syntaxError } from './fixtures';

const one: ExpressionScope = { variables: { response: [{ id: 'tt001' }] } };

describe('INTERFACE.md "Errors" rule 1: a FAILED error string names the expression and says what happened', () => {
  it('indexing past the end of a response array is an error (the FAILED example)', () => {
    expect(evaluationError('response[3].id', one).message).toBe('Index 3 is past the end of an array of length 1 in expression `response[3].id`');
  });

  it('a negative index is an error too', () => {
    expect(evaluationError('response[-1]', one).message).toBe(
      'Index -1 is before the start of an array of length 1 (use .at(-1) to count from the end) in expression `response[-1]`',
    );
  });

  it('an index that is not a whole number is an error', () => {
    expect(evaluationError('response[0.5]', one).reason).toBe('Index 0.5 of an array is not a whole number');
  });

  it('an index past the end of a string is an error', () => {
    expect(evaluationError("'ab'[2]").reason).toBe('Index 2 is past the end of a string of length 2');
  });

  it('a member of undefined is an error', () => {
    expect(evaluationError('response[0].id', { variables: { response: {} } }).message).toBe(
      "Cannot read property 'id' of undefined in expression `response[0].id`",
    );
  });

  it('a member of null is an error', () => {
    expect(evaluationError('response.id', { variables: { response: null } }).message).toBe(
      "Cannot read property 'id' of null in expression `response.id`",
    );
  });

  it('a method call on undefined is an error', () => {
    expect(evaluationError('response.map(x => x)', { variables: { response: undefined } }).reason).toBe("Cannot read property 'map' of undefined");
  });

  it('an unknown function is an error', () => {
    expect(evaluationError('foo(1)').message).toBe('Unknown function foo in expression `foo(1)`');
    expect(evaluationError('Math.pow(2, 3)').message).toBe('Unknown function Math.pow in expression `Math.pow(2, 3)`');
  });

  it('a method that is not whitelisted is an error', () => {
    expect(evaluationError('response.push(1)', one).reason).toBe('Method push is not allowed on an array');
  });

  it('a forbidden property written in the text fails at compile time', () => {
    const error = syntaxError('response.constructor');
    expect(error.message).toBe('Property constructor is not allowed in expression `response.constructor`');
  });

  it('a forbidden property computed while evaluating fails at evaluation time', () => {
    expect(evaluationError('response[key]', { variables: { response: {}, key: 'constructor' } }).message).toBe(
      'Property constructor is not allowed in expression `response[key]`',
    );
  });

  it('a syntax error quotes the expression and the parser message', () => {
    const error = syntaxError('a +');
    expect(error.message).toBe('Expression `a +` does not parse: Expected expression after + at character 3');
    expect(error.source).toBe('a +');
  });

  it('a syntax error in backticks names the expression without its backticks and keeps the source', () => {
    const error = syntaxError('`response[`');
    expect(error.message).toMatch(/^Expression `response\[` does not parse: /);
    expect(error.source).toBe('`response[`');
  });

  it('unsupported operators and constructs are syntax errors', () => {
    expect(syntaxError('1 | 2').message).toBe('Operator | is not supported in expression `1 | 2`');
    expect(syntaxError('~1').message).toBe('Operator ~ is not supported in expression `~1`');
    expect(syntaxError('2 ** 3').message).toBe('Operator ** is not supported in expression `2 ** 3`');
    expect(syntaxError('x => x').message).toBe('Arrow functions are only allowed as call arguments, e.g. list.map(x => x.id) in expression `x => x`');
    expect(syntaxError('(1, 2)').message).toBe('The comma operator is not supported in expression `(1, 2)`');
    expect(syntaxError('a; b').message).toBe('Expression `a; b` does not parse: expected one expression, found 2');
    expect(syntaxError('a = 1').message).toMatch(/does not parse/);
    expect(syntaxError('tag`x${1}`').message).toBe('Tagged templates are not supported in expression `tag`x${1}``');
    expect(syntaxError('`${a, b}`').message).toBe('Each ${...} in a template literal must hold exactly one expression in expression `${a, b}`');
    expect(syntaxError('response.map(({a}) => a)').message).toBe(
      'Arrow function parameters must be plain names in expression `response.map(({a}) => a)`',
    );
    expect(syntaxError('f()()').message).toBe('Only functions and methods can be called, e.g. contextField(...) or list.map(...) in expression `f()()`');
  });

  it('both errors carry isExpressionError, the source and their name', () => {
    const syntax = syntaxError('`a +`');
    expect(syntax).toBeInstanceOf(ExpressionSyntaxError);
    expect(syntax.isExpressionError).toBe(true);
    expect(syntax.name).toBe('ExpressionSyntaxError');
    expect(syntax.source).toBe('`a +`');
    const evaluation = evaluationError('`nothing`');
    expect(evaluation).toBeInstanceOf(ExpressionEvaluationError);
    expect(evaluation.isExpressionError).toBe(true);
    expect(evaluation.name).toBe('ExpressionEvaluationError');
    expect(evaluation.source).toBe('`nothing`');
    expect(evaluation.reason).toBe('nothing is not defined');
  });

  it('a host function that throws surfaces as an ExpressionEvaluationError carrying its message', () => {
    const cause = new Error('component movies is FAILED');
    const s: ExpressionScope = {
      functions: {
        componentResponse: () => {
          throw cause;
        },
        _: {
          get: () => {
            throw 'a string, not an Error';
          },
        },
      },
    };
    const error = evaluationError("componentResponse('movies')", s);
    expect(error.message).toBe("componentResponse failed: component movies is FAILED in expression `componentResponse('movies')`");
    expect(error.cause).toBe(cause);
    expect(evaluationError('_.get(1)', s).reason).toBe('_.get failed: a string, not an Error');
  });

  it('a native failure inside a method surfaces as an ExpressionEvaluationError with its message', () => {
    expect(evaluationError('(1).toFixed(500)').reason).toMatch(/toFixed\(\) digits argument must be between 0 and 100/);
    expect(evaluationError('(1).toString(99)').reason).toMatch(/radix/);
  });

  it('a host function returning a Promise is an evaluation error (host functions are synchronous)', () => {
    expect(evaluationError('later()', { functions: { later: async () => 1 } }).reason).toBe(
      'Function later returned a Promise; only JSON-like data is allowed',
    );
  });

  it('evaluate throws the same error on every call and keeps working afterwards', () => {
    const compiled = compileExpression('response[1].id');
    expect(() => compiled.evaluate(one)).toThrow('Index 1 is past the end');
    expect(() => compiled.evaluate(one)).toThrow('Index 1 is past the end');
    expect(compiled.evaluate({ variables: { response: [{}, { id: 'ok' }] } })).toBe('ok');
  });

  it('a very long expression is shortened in messages', () => {
    const text = `nothing + ${'1 + '.repeat(300)}1`;
    const error = evaluationError(text);
    expect(error.message.length).toBeLessThan(600);
    expect(error.message).toContain('…`');
    expect(error.source).toBe(text);
  });
});
