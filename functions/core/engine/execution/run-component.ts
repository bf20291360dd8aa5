import type { ExpressionScope } from '../../expression';
import type { CompiledComponent } from '../config/compile';
import { callWebservice, type Upstream } from './call-webservice';
import { failed, skipped, type ComponentResult } from './result';

/** What one component run sees of its query. */
export interface RunScope {
  /** The context fields (read by contextField, written by enrichment). */
  context: Record<string, unknown>;
  /** Responses of the query's components so far (read by componentResponse). */
  responseOf: (componentCode: string) => unknown;
  upstream: Upstream;
}

/**
 * One component, start to end (INTERFACE.md "Component result status"): trigger expression,
 * web service call, context field enrichment (whenever a response came back), validity.
 * Never throws: every failure becomes FAILED with the failure's message.
 */
export async function runComponent(component: CompiledComponent, run: RunScope): Promise<ComponentResult> {
  const functions = queryFunctions(run);
  try {
    const base: ExpressionScope = { functions };
    if (component.trigger && !component.trigger.evaluate(base)) return skipped();
    const { response, cachedTS } = await callWebservice(component, base, run.upstream);
    const withResponse: ExpressionScope = { functions, variables: { response } };
    // Evaluate everything before writing anything, so a FAILED component enriches nothing.
    const enriched = component.enrichment.map((e) => [e.contextField, e.expression.evaluate(withResponse)] as const);
    const valid = component.validity ? Boolean(component.validity.evaluate(withResponse)) : true;
    for (const [field, value] of enriched) run.context[field] = value;
    return { status: valid ? 'VALID' : 'INVALID', response, ...(cachedTS !== undefined ? { cacheInfo: { cachedTS } } : {}) };
  } catch (err) {
    return failed(err instanceof Error ? err.message : String(err));
  }
}

/** INTERFACE.md "Component" rules 4-5: `contextField(name)` and `componentResponse(code)`. */
export function queryFunctions(run: Pick<RunScope, 'context' | 'responseOf'>) {
  return {
    contextField: (name: unknown) => readContextField(run.context, name),
    componentResponse: (code: unknown) => run.responseOf(String(code)),
  };
}

/** `contextField(name)`: only the context's own fields, never what its prototype carries. */
export function readContextField(context: Record<string, unknown>, name: unknown): unknown {
  const field = String(name);
  return Object.hasOwn(context, field) ? context[field] : undefined;
}
