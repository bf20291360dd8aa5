/**
 * The two errors the expression language raises. Both name the expression (INTERFACE.md
 * "Errors" rule 1: the FAILED error string is the message of the evaluation failure).
 */

/** The expression text cannot be compiled: it does not parse, or uses something the language does not allow. */
export class ExpressionSyntaxError extends Error {
  readonly isExpressionError = true;
  /** The expression text as configured. */
  readonly source: string;
  constructor(message: string, source: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ExpressionSyntaxError';
    this.source = source;
  }
}

/** Evaluating the expression failed; `reason` is the message without the expression text. */
export class ExpressionEvaluationError extends Error {
  readonly isExpressionError = true;
  /** The expression text as configured. */
  readonly source: string;
  /** What happened, e.g. "Index 3 is past the end of an array of length 1". */
  readonly reason: string;
  constructor(reason: string, source: string, shown: string, options?: ErrorOptions) {
    super(`${reason} in expression ${quoted(shown)}`, options);
    this.name = 'ExpressionEvaluationError';
    this.source = source;
    this.reason = reason;
  }
}

/** The expression text in backticks for a message, shortened when very long. */
export function quoted(shown: string): string {
  return `\`${shown.length > 500 ? `${shown.slice(0, 500)}…` : shown}\``;
}

/**
 * Internal: raised anywhere inside the interpreter with just the reason; `evaluate` wraps it
 * into an ExpressionEvaluationError naming the expression.
 */
export class EvaluationFault extends Error {
  constructor(reason: string, options?: ErrorOptions) {
    super(reason, options);
    this.name = 'EvaluationFault';
  }
}

/** Throws an EvaluationFault. */
export function fault(reason: string, cause?: unknown): never {
  throw new EvaluationFault(reason, cause === undefined ? undefined : { cause });
}

/** The message of anything thrown, without trusting it to be an Error. */
export function messageOf(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message;
  try {
    return String(thrown);
  } catch {
    return 'unknown error';
  }
}

/** Turns anything thrown while evaluating into the one error type evaluate may throw. */
export function toEvaluationError(thrown: unknown, source: string, shown: string): ExpressionEvaluationError {
  if (thrown instanceof ExpressionEvaluationError) return thrown;
  if (thrown instanceof EvaluationFault) {
    return new ExpressionEvaluationError(thrown.message, source, shown, thrown.cause === undefined ? undefined : { cause: thrown.cause });
  }
  if (thrown instanceof RangeError && /call stack/i.test(thrown.message)) {
    return new ExpressionEvaluationError('Evaluation is nested too deeply (call stack exhausted)', source, shown, { cause: thrown });
  }
  return new ExpressionEvaluationError(messageOf(thrown), source, shown, { cause: thrown });
}
