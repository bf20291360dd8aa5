/**
 * What an expression reads from its query, found by a static walk of the syntax tree: the
 * context fields named in contextField('x') calls and the components named in
 * componentResponse('x') calls, anywhere (arguments, arrow bodies, template literals). The
 * engine's dependency planner is built on these (INTERFACE.md "Component result status" rule 2).
 */
import type { AstNode } from './parse';

/** What an expression reads through contextField and componentResponse. */
export interface ExpressionReferences {
  /** Literal arguments of contextField('x') calls, deduplicated, in order of appearance. */
  contextFields: string[];
  /** Literal arguments of componentResponse('x') calls, deduplicated, in order. */
  componentResponses: string[];
  /** True when contextField or componentResponse is called with an argument that is not a string literal. */
  dynamic: boolean;
}

/** Collects references from several sources, keeping first-seen order. */
export class ReferenceCollector {
  private readonly contextFields = new Set<string>();
  private readonly componentResponses = new Set<string>();
  private dynamic = false;

  addContextField(name: string): void {
    this.contextFields.add(name);
  }

  add(references: ExpressionReferences): void {
    for (const name of references.contextFields) this.contextFields.add(name);
    for (const code of references.componentResponses) this.componentResponses.add(code);
    this.dynamic ||= references.dynamic;
  }

  /** Walks a syntax tree (iteratively: depth is no concern here). */
  addTree(root: AstNode): void {
    const stack: unknown[] = [root];
    while (stack.length > 0) {
      const node = stack.pop();
      if (typeof node !== 'object' || node === null) continue;
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
        continue;
      }
      const n = node as AstNode;
      if (n.type === 'CallExpression') this.addCall(n);
      const children: unknown[] = [];
      for (const value of Object.values(n)) if (typeof value === 'object' && value !== null) children.push(value);
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  }

  private addCall(call: AstNode): void {
    const callee = call.callee as AstNode;
    if (callee.type !== 'Identifier') return;
    const into = callee.name === 'contextField' ? this.contextFields : callee.name === 'componentResponse' ? this.componentResponses : undefined;
    if (!into) return;
    const args = call.arguments as AstNode[];
    if (args.length === 0) return;
    const name = literalString(args[0]);
    if (name === undefined) this.dynamic = true;
    else into.add(name);
  }

  result(): ExpressionReferences {
    return { contextFields: [...this.contextFields], componentResponses: [...this.componentResponses], dynamic: this.dynamic };
  }
}

/** The string a node stands for when it is a string literal or a template literal without ${...}. */
function literalString(node: AstNode): string | undefined {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && (node.expressions as AstNode[]).length === 0) {
    return (node.quasis as { value: { cooked: string } }[])[0]?.value.cooked;
  }
  return undefined;
}

/** The references of a tree. */
export function referencesOf(root: AstNode): ExpressionReferences {
  const collector = new ReferenceCollector();
  collector.addTree(root);
  return collector.result();
}
