import type { CompiledConfig } from '../config/compile';
import { planQuery, type QueryPlan } from './plan';

/** Plans kept per compiled configuration (so a configuration change drops them with it). */
const MAX_PLANS = 500;
const plans = new WeakMap<CompiledConfig, Map<string, QueryPlan>>();

/**
 * The plan of a query, made once per configuration version and query shape (requested codes,
 * context fields given) rather than per request: plans are read-only, and the same page asks
 * the same query again and again.
 */
export function planFor(config: CompiledConfig, requested: readonly string[], givenContextFields: ReadonlySet<string>): QueryPlan {
  let cache = plans.get(config);
  if (!cache) plans.set(config, (cache = new Map()));
  const key = `${requested.join('\u0000')}\u0001${[...givenContextFields].sort().join('\u0000')}`;
  let plan = cache.get(key);
  if (!plan) {
    plan = planQuery(config, requested, givenContextFields);
    if (cache.size >= MAX_PLANS) cache.delete(cache.keys().next().value!);
    cache.set(key, plan);
  }
  return plan;
}
