import { compileExpression, ExpressionEvaluationError, ExpressionSyntaxError, type ExpressionScope } from '..';

/** Sample data records (INTERFACE.md "Sample data records"): movies. */
export const movies = [
  { id: 'tt001', titleType: 'movie', primaryTitle: 'Alpha', startYear: 1999, runtimeMinutes: 120, isAdult: false, genres: ['Drama', 'Comedy'], actors: ['nm1', 'nm2'] },
  { id: 'tt002', titleType: 'short', primaryTitle: 'Beta', startYear: 2005, runtimeMinutes: -1, isAdult: false, genres: [], actors: [] },
  { id: 'tt003', titleType: 'movie', primaryTitle: 'Gamma', startYear: 2012, runtimeMinutes: 95, isAdult: true, genres: ['Horror'], actors: ['nm2'] },
];

/** A query context (INTERFACE.md "Query context"). */
export const context: Record<string, unknown> = {
  id: 'tt001',
  ids: ['tt001', 'tt002'],
  user: { id: 'a@b.c', email: 'a@b.c', favouriteGenre: 'Drama' },
  count: 2,
  empty: '',
};

/** Reads like the engine does: `context[String(name)]`, which would hand out prototype members unguarded. */
export const contextField = (name: unknown): unknown => context[String(name)];
export const componentResponse = (code: unknown): unknown => ({ movies } as Record<string, unknown>)[String(code)];

/** A naive lodash-style helper namespace, as a host might pass it. */
export const lodashLike = {
  get: (object: unknown, path: unknown, fallback?: unknown): unknown => {
    const value = String(path)
      .split('.')
      .reduce<unknown>((o, key) => (o === null || o === undefined ? undefined : (o as Record<string, unknown>)[key]), object);
    return value === undefined ? fallback : value;
  },
  pick: (object: unknown, keys: unknown): Record<string, unknown> =>
    Object.fromEntries(
      (keys as string[]).filter((k) => Object.prototype.hasOwnProperty.call(object, k)).map((k) => [k, (object as Record<string, unknown>)[k]]),
    ),
};

export const scope: ExpressionScope = {
  variables: { response: movies, batchNumber: 3, event: { type: 'DataRecordCreated', data: { new: movies[0] } } },
  functions: { contextField, componentResponse, _: lodashLike },
};

/** Compiles and evaluates. */
export function run(text: string, s: ExpressionScope = scope): unknown {
  return compileExpression(text).evaluate(s);
}

/** The ExpressionEvaluationError evaluate throws, or a failure if it throws something else or nothing. */
export function evaluationError(text: string, s: ExpressionScope = scope): ExpressionEvaluationError {
  const compiled = compileExpression(text);
  try {
    compiled.evaluate(s);
  } catch (err) {
    if (err instanceof ExpressionEvaluationError) return err;
    throw new Error(`expected an ExpressionEvaluationError, got ${String(err)}`);
  }
  throw new Error(`expected \`${text}\` to fail`);
}

/** The ExpressionSyntaxError compileExpression throws. */
export function syntaxError(text: string): ExpressionSyntaxError {
  try {
    compileExpression(text);
  } catch (err) {
    if (err instanceof ExpressionSyntaxError) return err;
    throw new Error(`expected an ExpressionSyntaxError, got ${String(err)}`);
  }
  throw new Error(`expected \`${text}\` not to compile`);
}

/** Compile error or evaluation error, whichever comes first: for escapes that may be refused at either stage. */
export function refusal(text: string, s: ExpressionScope = scope): ExpressionSyntaxError | ExpressionEvaluationError {
  try {
    compileExpression(text);
  } catch (err) {
    if (err instanceof ExpressionSyntaxError) return err;
    throw err;
  }
  return evaluationError(text, s);
}
