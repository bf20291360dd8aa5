import type { CompiledConfig } from '../config/compile';
import { planFor } from '../planner/plan-cache';
import type { Upstream } from './call-webservice';
import { Limiter } from './limiter';
import { runComponent } from './run-component';
import { withSubComponents } from './sub-components';
import { failed, skipped, type ComponentResult, type QueryResult } from './result';

export interface QueryRequest {
  /** Components to return, in order (INTERFACE.md "componentCodes"). */
  componentCodes: readonly string[];
  context: Record<string, unknown>;
  processSubComponents?: boolean;
}

export interface QueryOptions {
  upstream: Upstream;
  /** At most this many sub component calls of one query at once (default 16). */
  subComponentConcurrency?: number;
}

/**
 * Runs a query like graphql-js runs a selection: it never rejects. Every component starts the
 * moment its own dependencies are done (not level by level), independent ones run
 * concurrently, and each reports its own status; only requested components are returned.
 */
export async function runQuery(config: CompiledConfig, request: QueryRequest, options: QueryOptions): Promise<QueryResult> {
  const started = performance.now();
  const context: Record<string, unknown> = { ...request.context };
  const plan = planFor(config, request.componentCodes, new Set(Object.keys(context)));
  const own = new Map<string, Promise<ComponentResult>>();
  const settled = new Map<string, ComponentResult>();
  const responseOf = (code: string) => {
    const result = settled.get(code);
    return result && 'response' in result ? result.response : undefined;
  };

  const start = (code: string): Promise<ComponentResult> => {
    let promise = own.get(code);
    if (!promise) {
      promise = execute(code).then((result) => {
        settled.set(code, result);
        return result;
      });
      own.set(code, promise);
    }
    return promise;
  };

  const execute = async (code: string): Promise<ComponentResult> => {
    const cycle = plan.cycles.get(code);
    if (cycle) return failed(cycle);
    const component = config.components.get(code);
    if (!component) return failed(config.broken.get(code) ?? `Component ${code} does not exist`);
    const dependencies = await Promise.all((plan.nodes.get(code)?.dependsOn ?? []).map(start));
    if (component.component.skipOnInvalidDependency && dependencies.some((d) => d.status !== 'VALID')) return skipped();
    return runComponent(component, { context, responseOf, upstream: options.upstream });
  };

  const limiter = new Limiter(options.subComponentConcurrency ?? 16);
  const requested = [...new Set(request.componentCodes)];
  const results = await Promise.all(
    requested.map(async (code) => {
      const result = await start(code);
      const component = config.components.get(code);
      if (!request.processSubComponents || !component) return result;
      return withSubComponents(component, result, { config, context, responseOf, upstream: options.upstream, limiter });
    }),
  );
  return {
    duration: Math.round((performance.now() - started) * 1000) / 1000,
    components: Object.fromEntries(requested.map((code, i) => [code, results[i]])),
  };
}
