/**
 * Turns a syntax tree into a tree of closures, once per configuration; evaluate then only
 * runs closures. Nothing is ever turned back into code. Static checks (forbidden property
 * names, unsupported syntax, arrow functions outside call arguments) fail here, as
 * ExpressionSyntaxError; everything that depends on data fails at evaluation time.
 */
import type jsep from 'jsep';
import type { ArrowExpression } from '@jsep-plugin/arrow';
import type { ObjectExpression, Property } from '@jsep-plugin/object';
import type { SpreadElement } from '@jsep-plugin/spread';
import type { TemplateLiteral } from '@jsep-plugin/template';
import {
  callFunction,
  callNamespace,
  hasOwn,
  invokeMethod,
  SHORT,
  spreadIntoList,
  spreadIntoObject,
  typeofName,
  unresolved,
} from './calls';
import { ExpressionSyntaxError, fault, messageOf, quoted } from './errors';
import { MAX_DEPTH } from './limits';
import { BINARY_OPERATORS, UNARY_OPERATORS } from './operators';
import type { AstNode, ExpressionText } from './parse';
import { checkKey, FORBIDDEN_PROPERTIES, readProperty, setOwn } from './safety';
import type { EvalContext } from './scope';
import { toStringValue } from './values';

/** The values of one arrow function call, linked to the frame it was created in. */
interface Frame {
  readonly values: readonly unknown[];
  readonly parent: Frame | undefined;
}

/** A compiled node. */
export type Evaluator = (ctx: EvalContext, frame: Frame | undefined) => unknown;

/** Arrow function parameters in scope at compile time. */
interface Lexical {
  readonly params: readonly string[];
  readonly parent: Lexical | undefined;
}

/** A compiled expression: its root closure and how many steps one evaluation costs before any loop. */
export interface CompiledTree {
  readonly evaluator: Evaluator;
  readonly cost: number;
}

const TOO_DEEP = `Nesting more than ${MAX_DEPTH} levels deep (brackets, calls or a chain of operators) is not allowed`;

/** Compiles a parsed expression. Throws ExpressionSyntaxError. */
export function compileTree(ast: AstNode, text: ExpressionText): CompiledTree {
  const compiler = new Compiler(text);
  try {
    const evaluator = compiler.expression(ast, undefined, 0);
    return { evaluator, cost: compiler.cost };
  } catch (err) {
    if (err instanceof ExpressionSyntaxError) throw err;
    const reason = err instanceof RangeError ? 'Nesting is too deep' : messageOf(err);
    throw new ExpressionSyntaxError(`${reason} in expression ${quoted(text.shown)}`, text.source, { cause: err });
  }
}

class Compiler {
  /** AST nodes evaluated once per evaluation (arrow bodies are counted per call instead). */
  cost = 0;

  constructor(private readonly text: ExpressionText) {}

  private fail(reason: string): never {
    throw new ExpressionSyntaxError(`${reason} in expression ${quoted(this.text.shown)}`, this.text.source);
  }

  expression(node: AstNode, lex: Lexical | undefined, depth: number): Evaluator {
    if (depth > MAX_DEPTH) this.fail(TOO_DEEP);
    this.cost++;
    switch (node.type) {
      case 'Literal': {
        const value = (node as jsep.Literal).value;
        if (value instanceof RegExp) this.fail('Regular expressions are not supported');
        return () => value;
      }
      case 'Identifier':
        return this.identifier((node as jsep.Identifier).name, lex);
      case 'MemberExpression':
      case 'CallExpression': {
        const link = this.link(node, lex, depth);
        if (!hasOptionalLink(node)) return link;
        return (ctx, frame) => {
          const value = link(ctx, frame);
          return value === SHORT ? undefined : value;
        };
      }
      case 'UnaryExpression':
        return this.unary(node as jsep.UnaryExpression, lex, depth);
      case 'BinaryExpression':
        return this.binary(node as jsep.BinaryExpression, lex, depth);
      case 'ConditionalExpression': {
        const { test, consequent, alternate } = node as jsep.ConditionalExpression;
        const t = this.expression(test, lex, depth + 1);
        const c = this.expression(consequent, lex, depth + 1);
        const a = this.expression(alternate, lex, depth + 1);
        return (ctx, frame) => (t(ctx, frame) ? c(ctx, frame) : a(ctx, frame));
      }
      case 'ArrayExpression':
        return this.list((node as jsep.ArrayExpression).elements, lex, depth);
      case 'ObjectExpression':
        return this.object(node as ObjectExpression, lex, depth);
      case 'TemplateLiteral':
        return this.template(node as TemplateLiteral, lex, depth);
      case 'ThisExpression':
        return this.fail('`this` is not available');
      case 'ArrowFunctionExpression':
        return this.fail('Arrow functions are only allowed as call arguments, e.g. list.map(x => x.id)');
      case 'SpreadElement':
        return this.fail('Spread (...) is only allowed in array literals, object literals and call arguments');
      case 'SequenceExpression':
        return this.fail('The comma operator is not supported');
      case 'TaggedTemplateExpression':
        return this.fail('Tagged templates are not supported');
      case 'Compound':
        return this.fail('Only one expression is allowed');
      default:
        return this.fail(`${node.type} is not supported`);
    }
  }

  /** A member access or call that may be part of an optional chain: it may return SHORT. */
  private link(node: AstNode, lex: Lexical | undefined, depth: number): Evaluator {
    return node.type === 'CallExpression'
      ? this.call(node as jsep.CallExpression, lex, depth)
      : this.member(node as jsep.MemberExpression, lex, depth);
  }

  /** The object of a member access or the callee of a call: stays in the chain. */
  private chainPart(node: AstNode, lex: Lexical | undefined, depth: number): Evaluator {
    if (node.type !== 'MemberExpression' && node.type !== 'CallExpression') return this.expression(node, lex, depth);
    if (depth > MAX_DEPTH) this.fail(TOO_DEEP);
    this.cost++;
    return this.link(node, lex, depth);
  }

  private identifier(name: string, lex: Lexical | undefined): Evaluator {
    if (name === 'undefined') return () => undefined;
    const param = resolveParam(name, lex);
    if (param) {
      const [up, index] = param;
      if (up === 0) return (_ctx, frame) => frame!.values[index];
      return (_ctx, frame) => {
        let f = frame!;
        for (let i = 0; i < up; i++) f = f.parent!;
        return f.values[index];
      };
    }
    return (ctx) => {
      const variables = ctx.variables;
      if (variables !== undefined && hasOwn(variables, name)) {
        const value = variables[name];
        if (typeof value === 'function') fault(`Variable ${name} holds a function, which expressions may not read`);
        return value;
      }
      return unresolved(ctx, name);
    };
  }

  private propertyKey(node: jsep.MemberExpression, lex: Lexical | undefined, depth: number): string | number | Evaluator {
    const property = node.property;
    if (!node.computed) {
      const name = (property as jsep.Identifier).name;
      if (FORBIDDEN_PROPERTIES.has(name)) this.fail(`Property ${name} is not allowed`);
      return name;
    }
    if (property.type === 'Literal') {
      const value = (property as jsep.Literal).value;
      if (typeof value === 'string' && FORBIDDEN_PROPERTIES.has(value)) this.fail(`Property ${value} is not allowed`);
      if (typeof value === 'string' || typeof value === 'number') return value;
    }
    return this.expression(property, lex, depth + 1);
  }

  private member(node: jsep.MemberExpression, lex: Lexical | undefined, depth: number): Evaluator {
    const object = this.chainPart(node.object, lex, depth + 1);
    const key = this.propertyKey(node, lex, depth);
    const optional = node.optional === true;
    if (typeof key === 'function') {
      return (ctx, frame) => {
        const target = object(ctx, frame);
        if (target === SHORT || (optional && (target === null || target === undefined))) return SHORT;
        return readProperty(target, key(ctx, frame));
      };
    }
    if (key === 'length') {
      return (ctx, frame) => {
        const target = object(ctx, frame);
        if (typeof target === 'string' || (Array.isArray(target) && target !== Array.prototype)) return target.length;
        if (target === SHORT || (optional && (target === null || target === undefined))) return SHORT;
        return readProperty(target, key);
      };
    }
    return (ctx, frame) => {
      const target = object(ctx, frame);
      if (target === SHORT || (optional && (target === null || target === undefined))) return SHORT;
      return readProperty(target, key);
    };
  }

  private call(node: jsep.CallExpression, lex: Lexical | undefined, depth: number): Evaluator {
    const callee = node.callee;
    const optionalCall = node.optional === true;
    if (callee.type === 'Identifier') {
      const name = (callee as jsep.Identifier).name;
      if (name === 'undefined' || resolveParam(name, lex)) this.fail(`${name} is not a function`);
      this.cost++;
      const args = this.args(node.arguments, lex, depth + 1);
      return (ctx, frame) => callFunction(ctx, name, args(ctx, frame), optionalCall);
    }
    if (callee.type !== 'MemberExpression') {
      this.expression(callee, lex, depth + 1); // reports a more precise problem inside the callee first
      return this.fail('Only functions and methods can be called, e.g. contextField(...) or list.map(...)');
    }
    if (depth + 1 > MAX_DEPTH) this.fail(TOO_DEEP);
    this.cost++;
    const member = callee as jsep.MemberExpression;
    const optionalMember = member.optional === true;
    const key = this.propertyKey(member, lex, depth + 1);
    const nameOf: Evaluator = typeof key === 'function' ? key : () => key;
    const args = this.args(node.arguments, lex, depth + 1);
    const objectNode = member.object;

    if (objectNode.type === 'Identifier') {
      const objectName = (objectNode as jsep.Identifier).name;
      if (objectName !== 'undefined' && !resolveParam(objectName, lex)) {
        this.cost++;
        // A variable's method, else a namespace's function (variables first).
        return (ctx, frame) => {
          const variables = ctx.variables;
          if (variables !== undefined && hasOwn(variables, objectName)) {
            const receiver = variables[objectName];
            if (typeof receiver === 'function') fault(`Variable ${objectName} holds a function, which expressions may not read`);
            if (optionalMember && (receiver === null || receiver === undefined)) return SHORT;
            return invokeMethod(ctx, receiver, nameOf(ctx, frame), args(ctx, frame), optionalCall);
          }
          return callNamespace(ctx, objectName, nameOf(ctx, frame), args(ctx, frame), optionalCall);
        };
      }
    }
    const object = this.chainPart(objectNode, lex, depth + 2);
    return (ctx, frame) => {
      const receiver = object(ctx, frame);
      if (receiver === SHORT || (optionalMember && (receiver === null || receiver === undefined))) return SHORT;
      return invokeMethod(ctx, receiver, nameOf(ctx, frame), args(ctx, frame), optionalCall);
    };
  }

  /** Call arguments: values, spreads and arrow functions. */
  private args(nodes: readonly AstNode[], lex: Lexical | undefined, depth: number): (ctx: EvalContext, frame: Frame | undefined) => unknown[] {
    let spreads = false;
    const parts = nodes.map((node): Evaluator => {
      if (node.type === 'ArrowFunctionExpression') return this.arrow(node as ArrowExpression, lex, depth);
      if (node.type === 'SpreadElement') {
        spreads = true;
        return this.spreadPart((node as SpreadElement).argument, lex, depth);
      }
      return this.expression(node, lex, depth);
    });
    if (spreads) return this.withSpreads(nodes, parts);
    switch (parts.length) {
      case 0:
        return () => [];
      case 1: {
        const [a] = parts;
        return (ctx, frame) => [a(ctx, frame)];
      }
      case 2: {
        const [a, b] = parts;
        return (ctx, frame) => [a(ctx, frame), b(ctx, frame)];
      }
      default:
        return (ctx, frame) => {
          const out = new Array<unknown>(parts.length);
          for (let i = 0; i < parts.length; i++) out[i] = parts[i](ctx, frame);
          return out;
        };
    }
  }

  private spreadPart(argument: AstNode, lex: Lexical | undefined, depth: number): Evaluator {
    this.cost++;
    if (argument === undefined || argument === null) this.fail('Spread (...) needs an expression');
    return this.expression(argument, lex, depth + 1);
  }

  private withSpreads(nodes: readonly (AstNode | null)[], parts: Evaluator[]): (ctx: EvalContext, frame: Frame | undefined) => unknown[] {
    const isSpread = nodes.map((n) => n !== null && n.type === 'SpreadElement');
    return (ctx, frame) => {
      const out: unknown[] = [];
      for (let i = 0; i < parts.length; i++) {
        const value = parts[i](ctx, frame);
        if (isSpread[i]) spreadIntoList(ctx, out, value);
        else out.push(value);
      }
      return out;
    };
  }

  /** An arrow function argument: becomes a function only while the call runs, never a value. */
  private arrow(node: ArrowExpression, lex: Lexical | undefined, depth: number): Evaluator {
    if (depth > MAX_DEPTH) this.fail(TOO_DEEP);
    if (node.async) this.fail('Async arrow functions are not supported');
    const names = (node.params ?? []).map((param) =>
      param.type === 'Identifier' ? (param as jsep.Identifier).name : this.fail('Arrow function parameters must be plain names'),
    );
    if (new Set(names).size !== names.length) this.fail('Arrow function parameters must have different names');
    if (names.includes('undefined')) this.fail('undefined cannot be a parameter name');
    this.cost++;
    const outerCost = this.cost;
    this.cost = 0;
    const body = this.expression(node.body, { params: names, parent: lex }, depth + 1);
    const bodyCost = this.cost;
    this.cost = outerCost;
    return (ctx, frame) =>
      (...values: unknown[]): unknown => {
        ctx.charge(bodyCost);
        return body(ctx, { values, parent: frame });
      };
  }

  private unary(node: jsep.UnaryExpression, lex: Lexical | undefined, depth: number): Evaluator {
    const { operator, argument } = node;
    if (operator === 'typeof' && argument.type === 'Identifier') {
      const name = (argument as jsep.Identifier).name;
      if (name !== 'undefined' && !resolveParam(name, lex)) {
        this.cost++;
        return (ctx) => typeofName(ctx, name);
      }
    }
    const apply = UNARY_OPERATORS.get(operator);
    if (!apply) return this.fail(`Operator ${operator} is not supported`);
    const value = this.expression(argument, lex, depth + 1);
    return (ctx, frame) => apply(ctx, value(ctx, frame));
  }

  private binary(node: jsep.BinaryExpression, lex: Lexical | undefined, depth: number): Evaluator {
    const { operator } = node;
    if (operator !== '&&' && operator !== '||' && operator !== '??' && !BINARY_OPERATORS.has(operator)) {
      this.fail(`Operator ${operator} is not supported`);
    }
    const left = this.expression(node.left, lex, depth + 1);
    const right = this.expression(node.right, lex, depth + 1);
    switch (operator) {
      case '&&':
        return (ctx, frame) => {
          const l = left(ctx, frame);
          return l ? right(ctx, frame) : l;
        };
      case '||':
        return (ctx, frame) => {
          const l = left(ctx, frame);
          return l ? l : right(ctx, frame);
        };
      case '??':
        return (ctx, frame) => {
          const l = left(ctx, frame);
          return l === null || l === undefined ? right(ctx, frame) : l;
        };
      case '===':
        return (ctx, frame) => left(ctx, frame) === right(ctx, frame);
      case '!==':
        return (ctx, frame) => left(ctx, frame) !== right(ctx, frame);
    }
    const apply = BINARY_OPERATORS.get(operator)!;
    return (ctx, frame) => apply(ctx, left(ctx, frame), right(ctx, frame));
  }

  private list(elements: readonly (AstNode | null)[], lex: Lexical | undefined, depth: number): Evaluator {
    let spreads = false;
    const parts = elements.map((element): Evaluator => {
      if (element === null) return () => undefined;
      if (element.type === 'SpreadElement') {
        spreads = true;
        return this.spreadPart((element as SpreadElement).argument, lex, depth + 1);
      }
      return this.expression(element, lex, depth + 1);
    });
    if (spreads) return this.withSpreads(elements, parts);
    return (ctx, frame) => {
      const out = new Array<unknown>(parts.length);
      for (let i = 0; i < parts.length; i++) out[i] = parts[i](ctx, frame);
      return out;
    };
  }

  private object(node: ObjectExpression, lex: Lexical | undefined, depth: number): Evaluator {
    type Entry = { spread: Evaluator } | { key: string | Evaluator; value: Evaluator };
    const entries = node.properties.map((property: AstNode): Entry => {
      if (property.type === 'SpreadElement') return { spread: this.spreadPart((property as SpreadElement).argument, lex, depth + 1) };
      if (property.type !== 'Property') return this.fail('Object literal entries must be key: value, a name or ...spread');
      const { key, value, computed } = property as Property;
      if (value === undefined) return this.fail('Object literal entries must be key: value, a name or ...spread');
      let name: string | Evaluator;
      if (computed) name = this.expression(key, lex, depth + 1);
      else if (key.type === 'Identifier') name = (key as jsep.Identifier).name;
      else if (key.type === 'Literal') name = String((key as jsep.Literal).value);
      else return this.fail('Object literal keys must be names, strings, numbers or [computed]');
      if (typeof name === 'string' && FORBIDDEN_PROPERTIES.has(name)) this.fail(`Property ${name} is not allowed`);
      return { key: name, value: this.expression(value, lex, depth + 1) };
    });
    return (ctx, frame) => {
      const out: Record<string, unknown> = {};
      for (const entry of entries) {
        if ('spread' in entry) {
          spreadIntoObject(ctx, out, entry.spread(ctx, frame));
          continue;
        }
        const key = typeof entry.key === 'string' ? entry.key : String(checkKey(entry.key(ctx, frame)));
        setOwn(out, key, entry.value(ctx, frame));
      }
      return out;
    };
  }

  private template(node: TemplateLiteral, lex: Lexical | undefined, depth: number): Evaluator {
    const quasis = node.quasis.map((q) => q.value.cooked);
    if (node.expressions.length !== quasis.length - 1) this.fail('Each ${...} in a template literal must hold exactly one expression');
    const parts = node.expressions.map((e) => this.expression(e, lex, depth + 1));
    if (parts.length === 0) {
      const text = quasis[0];
      return () => text;
    }
    const head = quasis[0];
    return (ctx, frame) => {
      let out = head;
      for (let i = 0; i < parts.length; i++) {
        out += toStringValue(parts[i](ctx, frame), ctx) + quasis[i + 1];
        if (out.length > ctx.maxStringLength) ctx.checkLength(out.length);
      }
      return out;
    };
  }
}

/** Where an arrow parameter lives: [frames up, index], or undefined. */
function resolveParam(name: string, lex: Lexical | undefined): [number, number] | undefined {
  for (let up = 0, l = lex; l !== undefined; up++, l = l.parent) {
    const index = l.params.indexOf(name);
    if (index >= 0) return [up, index];
  }
  return undefined;
}

function hasOptionalLink(node: AstNode): boolean {
  for (let n: AstNode | undefined = node; n !== undefined; ) {
    if (n.type === 'MemberExpression') {
      if (n.optional === true) return true;
      n = (n as jsep.MemberExpression).object;
    } else if (n.type === 'CallExpression') {
      if (n.optional === true) return true;
      n = (n as jsep.CallExpression).callee;
    } else {
      return false;
    }
  }
  return false;
}
