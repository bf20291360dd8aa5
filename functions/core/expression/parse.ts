/**
 * Parsing with jsep (plus its arrow, object, template and spread plugins). jsep keeps its
 * plugins and operators in module state; this file is the only place that configures it.
 */
import jsep from 'jsep';
import jsepArrow from '@jsep-plugin/arrow';
import jsepObject from '@jsep-plugin/object';
import jsepSpread from '@jsep-plugin/spread';
import jsepTemplate from '@jsep-plugin/template';
import { ExpressionSyntaxError, messageOf, quoted } from './errors';
import { MAX_SOURCE_LENGTH } from './limits';

jsep.plugins.register(jsepArrow, jsepObject, jsepTemplate, jsepSpread);
jsep.addUnaryOp('typeof');

/** A node of the syntax tree as jsep and its plugins produce it. */
export type AstNode = jsep.Expression;

/** What to parse, and how to name the expression in messages. */
export interface ExpressionText {
  /** The text as configured (ExpressionSyntaxError.source). */
  source: string;
  /** The text handed to the parser. */
  parseText: string;
  /** The text quoted in messages: the expression without its surrounding backticks. */
  shown: string;
}

/** Parses one expression; every failure, including a parser stack overflow on deep nesting, is an ExpressionSyntaxError. */
export function parse(text: ExpressionText): AstNode {
  const fail = (reason: string, cause?: unknown): never => {
    throw new ExpressionSyntaxError(`Expression ${quoted(text.shown)} does not parse: ${reason}`, text.source, { cause });
  };
  if (text.parseText.length > MAX_SOURCE_LENGTH) fail(`it is longer than ${MAX_SOURCE_LENGTH} characters`);
  let ast: AstNode;
  try {
    ast = jsep(text.parseText);
  } catch (err) {
    if (err instanceof RangeError) return fail('it is nested too deeply', err);
    return fail(messageOf(err), err);
  }
  if (ast.type === 'Compound') {
    const count = (ast.body as AstNode[]).length;
    fail(count === 0 ? 'it is empty' : `expected one expression, found ${count}`);
  }
  return ast;
}
