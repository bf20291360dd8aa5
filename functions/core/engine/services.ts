import type { Deps } from '../../deps';
import { CompiledConfigCache } from './config/cache';
import { EngineConfigRepository } from './config/repository';
import { EngineConfigService } from './config/service';
import { EngineQueryService } from './query-service';

export interface EngineServices {
  config: EngineConfigService;
  queries: EngineQueryService;
}

const built = new WeakMap<Deps, EngineServices>();

/**
 * The engine's use cases over one set of dependencies. Handlers that share dependencies (all
 * handlers of the local host, or one Lambda execution environment) share one compiled
 * configuration cache, so a configuration write is seen by the next query at once there and
 * within the cache's refresh bound (1 s) everywhere else.
 */
export function engineServices(deps: Deps): EngineServices {
  let services = built.get(deps);
  if (!services) {
    const repository = new EngineConfigRepository(deps.store);
    const cache = new CompiledConfigCache(repository, () => deps.clock.now());
    services = { config: new EngineConfigService(repository, cache), queries: new EngineQueryService(cache, deps.httpClient) };
    built.set(deps, services);
  }
  return services;
}
