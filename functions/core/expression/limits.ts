/**
 * Bounds that stop runaway expressions. Evaluation limits may be lowered or raised per call
 * through `ExpressionScope.limits`; compile limits are fixed.
 */
export interface ExpressionLimits {
  /** Evaluation steps per evaluate call (AST nodes, arrow function calls, elements visited, 64 characters built). */
  maxSteps: number;
  /** Longest string an expression may build (UTF-16 code units). */
  maxStringLength: number;
}

export const DEFAULT_LIMITS: Readonly<ExpressionLimits> = Object.freeze({
  maxSteps: 1_000_000,
  maxStringLength: 10 * 1024 * 1024,
});

/** Longest expression text accepted by the compiler. */
export const MAX_SOURCE_LENGTH = 65_536;

/** Deepest syntax tree accepted by the compiler (keeps evaluation far from the call stack limit). */
export const MAX_DEPTH = 1_000;
