import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HANDLER_FACTORIES } from '../../functions/handlers/registry';
import { Router } from '../../functions/local-host/router';
import { HANDLERS, ROUTES, routeKey } from '../../functions/routes';

describe('the route table is the one source of truth for both hosts', () => {
  it('every handler named by a route has a Lambda entry file and a local factory', async () => {
    for (const name of new Set(ROUTES.map((r) => r.handler))) {
      const file = `functions/handlers/${name}.ts`;
      expect(existsSync(file), file).toBe(true);
      const module = await import(`../../functions/handlers/${name}.ts`);
      expect(typeof module.handler, `${file} exports handler`).toBe('function');
      expect(HANDLER_FACTORIES[name]).toBe(module.create);
    }
    expect(Object.keys(HANDLER_FACTORIES).sort()).toEqual([...HANDLERS].sort());
  });

  it('no two routes share a route key', () => {
    const keys = ROUTES.map(routeKey);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('the local router finds every route of the table, like API Gateway', () => {
    const router = new Router();
    for (const route of ROUTES) {
      const path = route.path.replace(/\{(\w+)\}/g, 'x_$1');
      const match = router.match(route.method, path);
      expect(match.found && match.routeKey, routeKey(route)).toBe(routeKey(route));
    }
  });

  it('a literal segment wins over a path parameter; path parameters are decoded', () => {
    const router = new Router();
    const query = router.match('POST', '/experience/components/_query');
    expect(query.found && query.routeKey).toBe('POST /experience/components/_query');
    const item = router.match('GET', '/experience/components/a%20b');
    expect(item.found && item.pathParameters).toEqual({ componentCode: 'a b' });
    expect(router.match('PATCH', '/experience/components/x')).toEqual({ found: false, status: 405, allow: ['GET', 'PUT', 'DELETE'] });
    expect(router.match('GET', '/nowhere')).toEqual({ found: false, status: 404 });
  });
});
