import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_A, CUSTOMER_B, engineHeaders, startTestHost, type TestHost } from '../support/local-host';
import { component, connection } from '../support/engine-config';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host.stop());

const upstream = connection('upstream', 'http://127.0.0.1:9', { path: '/api', baseHeaders: [{ header: 'x-app', value: 'demo' }] });

describe('configuration management: connections, components and templates as a REST API', () => {
  it('PUT creates or replaces and answers 200 with the stored object; GET reads it back', async () => {
    const put = await host.call('PUT', '/experience/connections/upstream', upstream);
    expect(put.status).toBe(200);
    expect(put.body).toEqual(upstream);
    const get = await host.call('GET', '/experience/connections/upstream');
    expect(get.status).toBe(200);
    expect(get.body).toEqual(upstream);

    const replaced = { ...upstream, name: 'Renamed' };
    expect((await host.call('PUT', '/experience/connections/upstream', replaced)).body.name).toBe('Renamed');
    expect((await host.call('GET', '/experience/connections/upstream')).body.name).toBe('Renamed');
  });

  it('GET lists every object of a kind', async () => {
    await host.call('PUT', '/experience/connections/second', connection('second', 'http://127.0.0.1:9'));
    const list = await host.call('GET', '/experience/connections');
    expect(list.status).toBe(200);
    expect(list.body.connections.map((c: any) => c.connectionCode).sort()).toEqual(['second', 'upstream']);
  });

  it('GET of an unknown code answers 404 with a JSON error', async () => {
    const res = await host.call('GET', '/experience/components/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'NotFound', message: 'Component nope does not exist' } });
  });

  it('the codes in the path and the body must agree', async () => {
    const res = await host.call('PUT', '/experience/connections/other', upstream);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('CodeMismatch');
  });

  it('a component whose connection does not exist is refused, naming the field', async () => {
    const res = await host.call('PUT', '/experience/components/c1', component('c1', { config: { connectionCode: 'missing' } }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('components.c1.config.connectionCode: connection missing does not exist');
  });

  it('an expression that does not parse is refused, naming the field and the parse error', async () => {
    const res = await host.call('PUT', '/experience/components/c1', component('c1', { validityExpression: 'response.length >' }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^components\.c1\.validityExpression: .*does not parse/);
    const header = await host.call('PUT', '/experience/components/c1', component('c1', { config: { headers: [{ header: 'x', value: '`contextField(`' }] } }));
    expect(header.status).toBe(400);
    expect(header.body.error.message).toContain('components.c1.config.headers.x');
  });

  it('a body of the wrong shape is refused with the path of the bad field', async () => {
    const res = await host.call('PUT', '/experience/connections/bad', { connectionCode: 'bad', connectorCode: 'genericWebservice', config: { baseUrl: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('ValidationError');
    expect(res.body.error.message).toContain('body.config.baseUrl');
  });

  it('a body that is not JSON answers 400', async () => {
    const res = await host.call('PUT', '/experience/connections/upstream', '{not json');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('InvalidJson');
  });

  it('DELETE answers 409 while something still uses the object, 204 once free, then 404', async () => {
    expect((await host.call('PUT', '/experience/components/movie', component('movie'))).status).toBe(200);
    expect((await host.call('PUT', '/experience/templates/home', { templateCode: 'home', name: 'Home', componentCodes: ['movie'] })).status).toBe(200);

    const inUse = await host.call('DELETE', '/experience/connections/upstream');
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.message).toContain('component movie');
    expect((await host.call('DELETE', '/experience/components/movie')).status).toBe(409);

    expect((await host.call('DELETE', '/experience/templates/home')).status).toBe(204);
    expect((await host.call('DELETE', '/experience/components/movie')).status).toBe(204);
    expect((await host.call('GET', '/experience/components/movie')).status).toBe(404);
    expect((await host.call('DELETE', '/experience/components/movie')).status).toBe(404);
  });

  it('components and templates are listed and read like connections', async () => {
    expect((await host.call('PUT', '/experience/components/listed', component('listed'))).status).toBe(200);
    expect((await host.call('PUT', '/experience/templates/listedPage', { templateCode: 'listedPage', name: 'Listed', componentCodes: ['listed'] })).status).toBe(200);
    expect((await host.call('GET', '/experience/components')).body.components.map((c: any) => c.componentCode)).toContain('listed');
    expect((await host.call('GET', '/experience/components/listed')).body).toMatchObject({ componentCode: 'listed', componentType: 'genericWebserviceCall' });
    expect((await host.call('GET', '/experience/templates')).body.templates).toEqual([{ templateCode: 'listedPage', name: 'Listed', componentCodes: ['listed'] }]);
    expect((await host.call('GET', '/experience/templates/listedPage')).body.componentCodes).toEqual(['listed']);
    expect((await host.call('GET', '/experience/templates/nope')).status).toBe(404);
    expect((await host.call('DELETE', '/experience/templates/listedPage')).status).toBe(204);
    expect((await host.call('DELETE', '/experience/components/listed')).status).toBe(204);
  });

  it('a template naming a component that does not exist is refused', async () => {
    const res = await host.call('PUT', '/experience/templates/t', { templateCode: 't', componentCodes: ['ghost'] });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('templates.t.componentCodes: component ghost does not exist');
  });

  it('export and import the whole configuration (GET /api/raw-engine-config, PUT /engine-config)', async () => {
    const engineConfig = {
      connections: [upstream],
      components: [component('a'), component('b', { validityExpression: "componentResponse('a') != null" })],
      templates: [{ templateCode: 'page', name: 'Page', componentCodes: ['a', 'b'] }],
    };
    const put = await host.call('PUT', '/engine-config', { engineConfig });
    expect(put.status).toBe(200);
    const exported = await host.call('GET', '/api/raw-engine-config');
    expect(exported.status).toBe(200);
    expect(exported.body.engineConfig).toEqual(engineConfig);
    // Objects not in the import are gone: the import replaces the configuration.
    expect((await host.call('GET', '/experience/connections/second')).status).toBe(404);
  });

  it('an import with a broken reference is refused whole and changes nothing', async () => {
    const before = (await host.call('GET', '/api/raw-engine-config')).body;
    const res = await host.call('PUT', '/engine-config', { engineConfig: { connections: [], components: [component('x')], templates: [] } });
    expect(res.status).toBe(400);
    expect((await host.call('GET', '/api/raw-engine-config')).body).toEqual(before);
  });

  it("one customer's configuration is invisible to another", async () => {
    const other = await host.call('GET', '/experience/connections', undefined, engineHeaders(CUSTOMER_B));
    expect(other.status).toBe(200);
    expect(other.body.connections).toEqual([]);
    expect((await host.call('GET', '/experience/connections/upstream', undefined, engineHeaders(CUSTOMER_B))).status).toBe(404);
  });
});

describe('Authentication (INTERFACE.md rule 1)', () => {
  const path = '/experience/connections';
  it('a missing token answers 401', async () => {
    const res = await host.call('GET', path, undefined, { 'x-customer-code': CUSTOMER_A.customerCode });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('Unauthorized');
  });

  it('a wrong token answers 401, and so does the data graph API key on an engine route', async () => {
    expect((await host.call('GET', path, undefined, { authorization: 'Bearer nope', 'x-customer-code': 'acme' })).status).toBe(401);
    expect((await host.call('GET', path, undefined, { authorization: `Bearer ${CUSTOMER_A.apiKey}`, 'x-customer-code': 'acme' })).status).toBe(401);
  });

  it('a missing X-Customer-Code answers 401', async () => {
    expect((await host.call('GET', path, undefined, { authorization: `Bearer ${CUSTOMER_A.engineToken}` })).status).toBe(401);
  });

  it('a token of another customer answers 403', async () => {
    const res = await host.call('GET', path, undefined, { authorization: `Bearer ${CUSTOMER_A.engineToken}`, 'x-customer-code': CUSTOMER_B.customerCode });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('Forbidden');
  });

  it('GET /health answers 200 without auth; unknown paths 404 and wrong methods 405, as JSON', async () => {
    expect((await host.call('GET', '/health', undefined, {})).status).toBe(200);
    const missing = await host.call('GET', '/nope', undefined, {});
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NotFound');
    const wrong = await host.call('PATCH', '/experience/connections', undefined, {});
    expect(wrong.status).toBe(405);
  });

  it('no error answer contains a stack trace', async () => {
    const answers = await Promise.all([
      host.call('PUT', '/experience/connections/x', '{'),
      host.call('PUT', '/experience/connections/x', { connectionCode: 'x', config: null }),
      host.call('POST', '/experience/components/_query', { componentCodes: 'nope' }),
      host.call('GET', '/experience/connections', undefined, {}),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.text).not.toMatch(/\bat .*\.ts:\d+|node_modules|Error:/);
    }
  });
});
