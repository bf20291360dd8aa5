/**
 * The backtick rule (INTERFACE.md "Component" rule 3: an expression is written between
 * backticks). A string of two or more characters that starts and ends with a backtick is an
 * expression. When its content contains `${` the whole string is a JavaScript template
 * literal; otherwise the content is a plain expression, so `contextField('ids')` yields the
 * array itself rather than a string.
 */
import type { ExpressionText } from './parse';

/** True for a string written between backticks, i.e. an expression. */
export function isBacktickExpression(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 2 && value.charCodeAt(0) === 96 && value.charCodeAt(value.length - 1) === 96;
}

/** What to parse for a text that is always an expression, with or without surrounding backticks. */
export function expressionText(source: string): ExpressionText {
  const trimmed = source.trim();
  if (!isBacktickExpression(trimmed)) return { source, parseText: source, shown: trimmed };
  const content = trimmed.slice(1, -1);
  return { source, parseText: content.includes('${') ? trimmed : content, shown: content };
}
