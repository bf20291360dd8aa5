import type { Deps } from './deps';

/**
 * Builds a set of use cases once per `Deps`: handlers that share dependencies (all handlers of
 * the local host, or one Lambda execution environment) share the services and their caches.
 */
export function oncePerDeps<T>(build: (deps: Deps) => T): (deps: Deps) => T {
  const built = new WeakMap<Deps, T>();
  return (deps) => {
    let services = built.get(deps);
    if (services === undefined) {
      services = build(deps);
      built.set(deps, services);
    }
    return services;
  };
}
