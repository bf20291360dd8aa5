/**
 * compileExpression: parse once, compile once into closures, then evaluate many times.
 */
import { expressionText } from './backticks';
import { compileTree, type Evaluator } from './compile';
import { fault, toEvaluationError } from './errors';
import { parse, type AstNode, type ExpressionText } from './parse';
import { referencesOf, type ExpressionReferences } from './references';
import { EvalContext, type ExpressionScope } from './scope';
import { INTRINSICS } from './values';

/** An expression ready to evaluate. */
export interface CompiledExpression {
  /** The original text as configured. */
  readonly source: string;
  /** What it reads through contextField and componentResponse. */
  readonly references: ExpressionReferences;
  /** Evaluates against a scope; throws ExpressionEvaluationError only. */
  evaluate(scope: ExpressionScope): unknown;
}

class Compiled implements CompiledExpression {
  constructor(
    readonly source: string,
    readonly references: ExpressionReferences,
    private readonly shown: string,
    private readonly evaluator: Evaluator,
    private readonly cost: number,
  ) {}

  evaluate(scope: ExpressionScope): unknown {
    try {
      const value = this.evaluator(new EvalContext(scope, this.cost), undefined);
      if (typeof value === 'function' || (typeof value === 'object' && value !== null && INTRINSICS.has(value))) {
        fault('The expression evaluated to a function or a built-in object, which is not allowed');
      }
      return value;
    } catch (err) {
      throw toEvaluationError(err, this.source, this.shown);
    }
  }
}

/** Compiles an already parsed tree (also used for `{contextField}` values). Throws ExpressionSyntaxError. */
export function compileAst(ast: AstNode, text: ExpressionText): CompiledExpression {
  const { evaluator, cost } = compileTree(ast, text);
  return new Compiled(text.source, referencesOf(ast), text.shown, evaluator, cost);
}

/**
 * Compiles a field that is always an expression (trigger, validity, enrichment, sub component,
 * criteria, hasMore, responsePrep); the text may or may not be wrapped in backticks.
 * Throws ExpressionSyntaxError.
 */
export function compileExpression(text: string): CompiledExpression {
  const prepared = expressionText(String(text));
  return compileAst(parse(prepared), prepared);
}
