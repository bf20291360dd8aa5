/**
 * The one expression language of the engine (ARCHITECTURE.md "Expressions"): a safe subset of
 * JavaScript expressions, parsed with jsep and evaluated by our own interpreter.
 */
export { compileExpression, type CompiledExpression } from './expression';
export { compileValue, type CompiledValue } from './compile-value';
export { isBacktickExpression } from './backticks';
export { ExpressionEvaluationError, ExpressionSyntaxError } from './errors';
export type { ExpressionReferences } from './references';
export type { ExpressionScope, HostFunction } from './scope';
export { DEFAULT_LIMITS, type ExpressionLimits } from './limits';
