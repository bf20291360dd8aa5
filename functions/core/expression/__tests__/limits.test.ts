import { describe, expect, it } from 'vitest';
import { compileExpression, DEFAULT_LIMITS, ExpressionEvaluationError, type ExpressionScope } from '..';
import { evaluationError, movies, scope, syntaxError } from './fixtures';

const TEN_MIB = DEFAULT_LIMITS.maxStringLength;

describe('the step budget stops runaway evaluation', () => {
  it('nested map over large lists stops with an evaluation error (the step budget, not a clock)', () => {
    const error = evaluationError(
      "'x'.padEnd(1000).split('').map(a => 'x'.padEnd(1000).split('').map(b => 'x'.padEnd(1000).split('').map(c => [a, b, c])))",
    );
    expect(error.reason).toBe(`Evaluation exceeded the budget of ${DEFAULT_LIMITS.maxSteps} steps`);
  });

  it('doubling a shared structure and then serialising it is stopped by the budget', () => {
    const doubled = `[1]${'.map(x => [x, x])'.repeat(40)}`;
    for (const text of [`JSON.stringify(${doubled})`, `${doubled}.join()`, `${doubled} + ''`, `${doubled}.flat(100)`, `\`\${${doubled}}\``, `${doubled} == 'a'`]) {
      expect(evaluationError(text).reason).toMatch(/exceeded the budget/);
    }
  });

  it('splitting a large string into characters pays for every character', () => {
    expect(evaluationError("'x'.repeat(5000000).split('')").reason).toMatch(/exceeded the budget/);
  });

  it('the budget is per evaluate call and can be set through scope.limits', () => {
    const compiled = compileExpression('response.map(m => m.id)');
    const tight: ExpressionScope = { ...scope, limits: { maxSteps: 5 } };
    expect(() => compiled.evaluate(tight)).toThrow('Evaluation exceeded the budget of 5 steps');
    for (let i = 0; i < 1000; i++) expect(compiled.evaluate(scope)).toHaveLength(3);
  });

  it('legitimate work on a few thousand records stays inside the budget', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ ...movies[i % 3], id: `tt${i}` }));
    const s: ExpressionScope = { variables: { response: many } };
    const result = compileExpression("response.filter(m => m.startYear > 2000).map(m => `${m.id}:${m.genres.join('|')}`).join(',')").evaluate(s);
    expect(typeof result).toBe('string');
  });
});

describe('string size caps', () => {
  it.each([
    ["'x'.padStart(20000000)", 20_000_000],
    ["'x'.padEnd(20000000, 'ab')", 20_000_000],
    ["'ab'.repeat(6000000)", 12_000_000],
  ])('%s is refused before the string is built', (text, length) => {
    expect(evaluationError(text).reason).toBe(`A string of length ${length} exceeds the limit of ${TEN_MIB} characters`);
  });

  it.each([
    "'x'.repeat(6000000) + 'x'.repeat(6000000)",
    "`${'x'.repeat(6000000)}${'x'.repeat(6000000)}`",
    "['x'.repeat(6000000), 'x'.repeat(6000000)].join('')",
    "'x'.repeat(6000000).replace('x', 'y'.repeat(6000000))",
    "['a'.repeat(4000000)].map(s => s + s + s)[0]",
  ])('%s is refused once the string grows past 10 MiB', (text) => {
    expect(evaluationError(text).reason).toMatch(/^A string of length \d+ exceeds the limit of 10485760 characters$/);
  });

  it('the cap can be set through scope.limits', () => {
    expect(evaluationError("'abc' + 'def'", { limits: { maxStringLength: 5 } }).reason).toBe('A string of length 6 exceeds the limit of 5 characters');
  });
});

describe('deep nesting', () => {
  it.each([
    ['brackets', `${'('.repeat(5000)}1${')'.repeat(5000)}`],
    ['arrays', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['objects', `${'({a:'.repeat(3000)}1${'})'.repeat(3000)}`],
    ['member chains', `a${'.b'.repeat(5000)}`],
    ['operator chains', Array.from({ length: 3000 }, (_, i) => `x${i}`).join(' + ')],
    ['unary chains', `${'!'.repeat(5000)}1`],
    ['calls', `${'f('.repeat(3000)}${')'.repeat(3000)}`],
  ])('nesting that would overflow the parser or the evaluator is an ExpressionSyntaxError (%s)', (_what, text) => {
    const error = syntaxError(text);
    expect(error.message).toMatch(/does not parse|Nesting more than 1000 levels deep/);
  });

  it('moderate nesting is fine', () => {
    expect(compileExpression(`${'('.repeat(200)}1${')'.repeat(200)}`).evaluate({})).toBe(1);
    expect(compileExpression(Array.from({ length: 500 }, () => '1').join(' + ')).evaluate({})).toBe(500);
  });

  it('data nested too deeply for the evaluator is an ExpressionEvaluationError', () => {
    const deep = "'x'.padEnd(100000).split('').reduce((acc, c) => [acc], [])";
    expect(evaluationError(`${deep} + ''`).reason).toBe('Evaluation is nested too deeply (call stack exhausted)');
    expect(evaluationError(`JSON.stringify(${deep})`).reason).toMatch(/nested too deeply/);
    expect(evaluationError(`${deep}.flat(1000000)`).reason).toMatch(/nested too deeply|exceeded the budget/);
  });

  it('an expression longer than 64 Ki characters does not compile', () => {
    expect(syntaxError(`'${'x'.repeat(70000)}'`).message).toMatch(/does not parse: it is longer than 65536 characters$/);
  });
});

// Speed is measured by `npm run bench` (bench/suites/expression.ts), never asserted in a test.
describe('compile once, evaluate many times', () => {
  it('evaluating a failing expression is an ExpressionEvaluationError each time, not a crash', () => {
    const compiled = compileExpression('response[10].id');
    for (let i = 0; i < 1000; i++) expect(() => compiled.evaluate(scope)).toThrow(ExpressionEvaluationError);
  });
});
