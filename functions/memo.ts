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

/**
 * A stand-in for a dependency that is fetched only when first used. Lambda builds each adapter
 * from the environment variable the stack grants with its permission; a use case that holds a
 * port it never calls must not force that adapter (and its setting) into existence.
 */
export function lazy<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get(_target, property) {
      const target = get() as Record<string | symbol, unknown>;
      const value = target[property];
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
