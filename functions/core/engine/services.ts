import { oncePerDeps } from '../../memo';
import { CompiledConfigCache } from './config/cache';
import { EngineConfigRepository } from './config/repository';
import { EngineConfigService } from './config/service';
import { EngineQueryService } from './query-service';

export interface EngineServices {
  config: EngineConfigService;
  queries: EngineQueryService;
}

/**
 * The engine's use cases over one set of dependencies. Handlers that share dependencies share
 * one compiled configuration cache, so a configuration write is seen by the next query at once
 * there and within the cache's refresh bound (1 s) everywhere else.
 */
export const engineServices = oncePerDeps((deps): EngineServices => {
  const repository = new EngineConfigRepository(deps.store);
  const cache = new CompiledConfigCache(repository, () => deps.clock.now());
  return { config: new EngineConfigService(repository, cache), queries: new EngineQueryService(cache, deps.httpClient, () => deps.clock.now()) };
});
