import { ROUTES, routeKey, type Route } from '../routes';

interface CompiledRoute {
  route: Route;
  segments: string[];
  literalCount: number;
}

export type RouteMatch =
  | { found: true; route: Route; routeKey: string; pathParameters: Record<string, string> }
  | { found: false; status: 404 | 405; allow?: string[] };

/**
 * Matches requests against the route table the way API Gateway does: `{name}` matches one
 * path segment, and the most specific route (most literal segments) wins.
 */
export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: readonly Route[] = ROUTES) {
    this.routes = routes.map((route) => {
      const segments = route.path.split('/').slice(1);
      return { route, segments, literalCount: segments.filter((s) => !s.startsWith('{')).length };
    });
  }

  match(method: string, path: string): RouteMatch {
    const parts = path.split('/').slice(1);
    let best: { compiled: CompiledRoute; params: Record<string, string> } | undefined;
    const allow = new Set<string>();
    for (const compiled of this.routes) {
      const params = matchSegments(compiled.segments, parts);
      if (!params) continue;
      allow.add(compiled.route.method);
      if (compiled.route.method !== method) continue;
      if (!best || compiled.literalCount > best.compiled.literalCount) best = { compiled, params };
    }
    if (best) return { found: true, route: best.compiled.route, routeKey: routeKey(best.compiled.route), pathParameters: best.params };
    return allow.size > 0 ? { found: false, status: 405, allow: [...allow] } : { found: false, status: 404 };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  if (pattern.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const segment = pattern[i];
    if (segment.startsWith('{')) {
      if (parts[i] === '') return undefined;
      let value: string;
      try {
        value = decodeURIComponent(parts[i]);
      } catch {
        return undefined;
      }
      params[segment.slice(1, -1)] = value;
    } else if (segment !== parts[i]) {
      return undefined;
    }
  }
  return params;
}
