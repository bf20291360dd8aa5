import type { CompiledConfig } from '../config/compile';
import { findCycles } from './cycles';

/** One component of a query plan and the components it waits for. */
export interface PlanNode {
  componentCode: string;
  dependsOn: string[];
}

export interface QueryPlan {
  /** Requested and needed components, each with its dependencies. */
  nodes: Map<string, PlanNode>;
  /** Components on a dependency cycle -> the error that names the whole cycle path. */
  cycles: Map<string, string>;
}

/**
 * Plans a query (INTERFACE.md "Component result status", rules 2-4). A component depends on
 * every component whose response it reads through `componentResponse(code)` (those join the
 * query even when not requested) and on the components of the query that enrich a context
 * field it reads. When a field it reads is neither in the query context nor enriched by a
 * component of the query, the components configured to enrich it join the query too, so a
 * value that only a component can produce is produced rather than read as undefined.
 * Dependencies chain without limit; cycles are reported, not followed.
 */
export function planQuery(config: CompiledConfig, requested: readonly string[], givenContextFields: ReadonlySet<string>): QueryPlan {
  const inPlay = new Set<string>();
  const pending = [...requested];
  const join = (code: string) => {
    if (!inPlay.has(code) && (config.components.has(code) || config.broken.has(code))) {
      inPlay.add(code);
      pending.push(code);
    }
  };

  // Grow the set of components to run until nothing new joins.
  for (;;) {
    while (pending.length > 0) {
      const code = pending.pop()!;
      if (!inPlay.has(code)) join(code);
      for (const other of config.components.get(code)?.readsResponsesOf ?? []) join(other);
    }
    let grew = false;
    for (const code of [...inPlay]) {
      for (const field of config.components.get(code)?.readsContextFields ?? []) {
        const enrichers = (config.enrichersOf.get(field) ?? []).filter((e) => e !== code);
        if (enrichers.length === 0 || givenContextFields.has(field) || enrichers.some((e) => inPlay.has(e))) continue;
        enrichers.forEach(join);
        grew = true;
      }
    }
    if (!grew) break;
  }

  const nodes = new Map<string, PlanNode>();
  for (const code of inPlay) {
    const component = config.components.get(code);
    const dependsOn = new Set<string>();
    for (const other of component?.readsResponsesOf ?? []) if (other !== code && inPlay.has(other)) dependsOn.add(other);
    for (const field of component?.readsContextFields ?? []) {
      for (const enricher of config.enrichersOf.get(field) ?? []) if (enricher !== code && inPlay.has(enricher)) dependsOn.add(enricher);
    }
    nodes.set(code, { componentCode: code, dependsOn: [...dependsOn].sort() });
  }
  return { nodes, cycles: findCycles(nodes) };
}
