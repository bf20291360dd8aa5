/**
 * compileValue: a configured value that may be a specified value (any JSON), a context field
 * (`{"contextField": "name"}`) or an expression (a string in backticks), at any depth of
 * objects and arrays (INTERFACE.md "Component" rule 3).
 */
import { expressionText, isBacktickExpression } from './backticks';
import { compileAst, type CompiledExpression } from './expression';
import { parse, type AstNode } from './parse';
import { ReferenceCollector, type ExpressionReferences } from './references';
import { setOwn } from './safety';
import type { ExpressionScope } from './scope';
import { isPlainObject } from './values';

/** A configured value ready to evaluate. */
export interface CompiledValue {
  /** What it reads through contextField and componentResponse, at any depth. */
  readonly references: ExpressionReferences;
  /** True when no expression and no context field appears anywhere: evaluate returns the value as is. */
  readonly isConstant: boolean;
  /** Evaluates every expression and context field in it; throws ExpressionEvaluationError only. */
  evaluate(scope: ExpressionScope): unknown;
}

type Part = (scope: ExpressionScope) => unknown;

/** Compiles a configured value. Throws ExpressionSyntaxError for an expression that does not compile. */
export function compileValue(value: unknown): CompiledValue {
  const collector = new ReferenceCollector();
  const part = compilePart(value, collector);
  const references = collector.result();
  if (part === undefined) return { references, isConstant: true, evaluate: () => value };
  return { references, isConstant: false, evaluate: part };
}

/** A `{"contextField": "name"}` object: exactly one own key, contextField, holding a string. */
function contextFieldName(value: unknown): string | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'contextField') return undefined;
  const name = Object.getOwnPropertyDescriptor(value, 'contextField')?.value as unknown;
  return typeof name === 'string' ? name : undefined;
}

/** The evaluator of one value, or undefined when the value is constant. */
function compilePart(value: unknown, collector: ReferenceCollector): Part | undefined {
  if (isBacktickExpression(value)) {
    const text = expressionText(value);
    const compiled = compileAst(parse(text), text);
    collector.add(compiled.references);
    return (scope) => compiled.evaluate(scope);
  }
  const field = contextFieldName(value);
  if (field !== undefined) {
    const compiled = contextFieldRead(field, value);
    collector.add(compiled.references);
    return (scope) => compiled.evaluate(scope);
  }
  if (Array.isArray(value)) {
    const parts = value.map((element) => compilePart(element, collector));
    if (parts.every((p) => p === undefined)) return undefined;
    return (scope) => value.map((element, i) => (parts[i] === undefined ? element : parts[i](scope)));
  }
  if (isPlainObject(value)) {
    const entries = Object.keys(value).map((key) => {
      const element = Object.getOwnPropertyDescriptor(value, key)?.value as unknown;
      return { key, element, part: compilePart(element, collector) };
    });
    if (entries.every((e) => e.part === undefined)) return undefined;
    return (scope) => {
      const out: Record<string, unknown> = {};
      for (const { key, element, part } of entries) setOwn(out, key, part === undefined ? element : part(scope));
      return out;
    };
  }
  return undefined;
}

/** A context field value compiles to the call contextField('name'), named by its JSON in messages. */
function contextFieldRead(name: string, value: unknown): CompiledExpression {
  const ast: AstNode = {
    type: 'CallExpression',
    callee: { type: 'Identifier', name: 'contextField' },
    arguments: [{ type: 'Literal', value: name, raw: JSON.stringify(name) }],
  };
  const shown = JSON.stringify(value);
  return compileAst(ast, { source: shown, parseText: shown, shown });
}
