import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/local-host';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';
import { component, connection } from '../support/engine-config';
import type { Component } from '../../functions/core/engine/config/model';

let host: TestHost;
let stub: StubUpstream;

beforeAll(async () => {
  [host, stub] = await Promise.all([startTestHost(), startStubUpstream()]);
  stub.on('/movies', (req) => ({ body: [{ id: req.query.get('id') ?? 'tt1', title: 'Heat', actors: ['nm1', 'nm2'] }] }));
  stub.on('/empty', { body: [] });
  stub.on('/boom', { status: 503, body: { message: 'down' } });
  stub.on('/text', { text: 'plain words' });
  stub.on('/slow', { body: [{ ok: true }], delayMs: 3_000 });
  stub.on('/actors', (req) => ({ body: req.query.getAll('_id[]').map((id) => ({ id, name: `Actor ${id}` })) }));
  stub.on('/echo', (req) => ({ body: [{ method: req.method, path: req.path, query: Object.fromEntries(req.query), headers: req.headers, body: req.body }] }));
});
afterAll(() => Promise.all([host.stop(), stub.stop()]));

async function configure(components: Component[], connectionConfig = {}) {
  const res = await host.call('PUT', '/engine-config', {
    engineConfig: { connections: [connection('upstream', stub.url, connectionConfig)], components, templates: [] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function query(componentCodes: string[], context: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const res = await host.call('POST', '/experience/components/_query', { componentCodes, context, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { duration: number; components: Record<string, any> };
}

beforeEach(() => {
  stub.requests.length = 0;
});

describe('POST /experience/components/_query: Component result status', () => {
  it('VALID when the Validity Expression is true, with the response', async () => {
    await configure([component('movie', { config: { path: '/movies' }, validityExpression: 'response.length > 0' })]);
    const result = await query(['movie']);
    expect(result.components.movie).toEqual({ status: 'VALID', response: [{ id: 'tt1', title: 'Heat', actors: ['nm1', 'nm2'] }] });
    expect(typeof result.duration).toBe('number');
  });

  it('VALID when there is no Validity Expression', async () => {
    await configure([component('movie', { config: { path: '/movies' } })]);
    expect((await query(['movie'])).components.movie.status).toBe('VALID');
  });

  it('INVALID when the Validity Expression is false; the response is still included', async () => {
    await configure([component('none', { config: { path: '/empty' }, validityExpression: '`response.length > 0`' })]);
    expect((await query(['none'])).components.none).toEqual({ status: 'INVALID', response: [] });
  });

  it('FAILED when an expression indexes past the end of the response; error names the expression, no response key', async () => {
    await configure([
      component('none', { config: { path: '/empty' }, contextFieldEnrichment: [{ contextField: 'firstId', expression: 'response[0].id' }] }),
      component('movie', { config: { path: '/movies' } }),
    ]);
    const result = await query(['none', 'movie']);
    expect(result.components.none.status).toBe('FAILED');
    expect(result.components.none.error).toContain('response[0].id');
    expect(Object.keys(result.components.none).sort()).toEqual(['error', 'status']);
    // Errors rule 1: other components of the same query are still returned.
    expect(result.components.movie.status).toBe('VALID');
  });

  it('FAILED when the web service answers a non-2xx status, naming the status', async () => {
    await configure([component('down', { config: { path: '/boom' } })]);
    const result = await query(['down']);
    expect(result.components.down).toEqual({ status: 'FAILED', error: expect.stringContaining('HTTP 503') });
  });

  it('FAILED with a timeout error when the web service is slower than the connection timeout; the rest of the query completes', async () => {
    await configure([component('slow', { config: { path: '/slow' } }), component('movie', { config: { path: '/movies' } })], { timeoutMs: 200 });
    const result = await query(['slow', 'movie']);
    expect(result.components.slow).toEqual({ status: 'FAILED', error: expect.stringContaining('did not answer within 200 ms') });
    expect(result.components.movie.status).toBe('VALID');
    expect(result.duration).toBeLessThan(3_000);
  });

  it('SKIPPED when the Trigger Expression is false: neither response nor error, and no call is made', async () => {
    await configure([component('movie', { config: { path: '/movies' }, triggerExpression: "contextField('wanted') == true" })]);
    const result = await query(['movie'], { wanted: false });
    expect(result.components.movie).toEqual({ status: 'SKIPPED' });
    expect(stub.requests).toHaveLength(0);
    expect((await query(['movie'], { wanted: true })).components.movie.status).toBe('VALID');
  });

  it('SKIPPED when Skip on Invalid Dependency is true and a dependency is INVALID; runs anyway when it is unset (rule 1)', async () => {
    await configure([
      component('none', { config: { path: '/empty' }, validityExpression: 'response.length > 0' }),
      component('careful', { config: { path: '/movies' }, skipOnInvalidDependency: true, validityExpression: "componentResponse('none') != null" }),
      component('carefree', { config: { path: '/movies' }, validityExpression: "componentResponse('none') != null" }),
    ]);
    const result = await query(['careful', 'carefree']);
    expect(result.components.careful).toEqual({ status: 'SKIPPED' });
    expect(result.components.carefree.status).toBe('VALID');
    // Only requested components are returned.
    expect(Object.keys(result.components)).toEqual(['careful', 'carefree']);
  });

  it('SKIPPED propagates: a dependency that is FAILED or SKIPPED also skips a careful component', async () => {
    await configure([
      component('down', { config: { path: '/boom' } }),
      component('a', { config: { path: '/movies' }, skipOnInvalidDependency: true, validityExpression: "componentResponse('down') == null" }),
      component('b', { config: { path: '/movies' }, skipOnInvalidDependency: true, validityExpression: "componentResponse('a') == null" }),
    ]);
    const result = await query(['a', 'b']);
    expect(result.components.a.status).toBe('SKIPPED');
    expect(result.components.b.status).toBe('SKIPPED');
  });
});

describe('the web-service call', () => {
  it('builds the URL, method, headers, query parameters and body from the connection and the component (the component wins)', async () => {
    await configure(
      [
        component('echo', {
          config: {
            path: "`/echo/${contextField('movieId')}`",
            method: 'POST',
            headers: [
              { header: 'X-Tenant', value: 'component' },
              { header: 'X-User', value: { contextField: 'user' } },
            ],
            queryParams: [
              { parameter: 'ids', value: '`contextField("ids")`' },
              { parameter: 'lang', value: 'en' },
            ],
            queryParamsOptions: { arrayFormat: 'bracket' },
            body: { title: "`contextField('title') + '!'`", fixed: 1 },
          },
        }),
      ],
      {
        path: '/',
        baseHeaders: [
          { header: 'x-tenant', value: 'connection' },
          { header: 'x-base', value: 'yes' },
        ],
        baseQueryParams: [{ parameter: 'lang', value: 'fr' }, { parameter: 'v', value: 2 }],
        body: { base: true },
      },
    );
    const result = await query(['echo'], { movieId: 'tt9', user: 'ann@example.com', ids: ['a', 'b'], title: 'Heat' });
    expect(result.components.echo.status).toBe('VALID');
    const received = stub.requests[0];
    expect(received.method).toBe('POST');
    expect(received.path).toBe('/echo/tt9');
    expect(decodeURIComponent(received.url.split('?')[1])).toBe('lang=en&v=2&ids[]=a&ids[]=b');
    expect(received.headers['x-tenant']).toBe('component');
    expect(received.headers['x-base']).toBe('yes');
    expect(received.headers['x-user']).toBe('ann@example.com');
    expect(JSON.parse(received.body)).toEqual({ base: true, title: 'Heat!', fixed: 1 });
  });

  it('a non-JSON answer is kept as its text', async () => {
    await configure([component('text', { config: { path: '/text' } })]);
    expect((await query(['text'])).components.text).toEqual({ status: 'VALID', response: 'plain words' });
  });

  it('keeps connections to the web service alive across queries', async () => {
    await configure([component('movie', { config: { path: '/movies' } })]);
    await query(['movie']);
    await query(['movie']);
    expect(stub.requests.map((r) => r.headers.connection ?? 'keep-alive')).toEqual(['keep-alive', 'keep-alive']);
  });
});

describe('dependencies (INTERFACE.md "States and transitions" rules 2-4)', () => {
  it('Context Field Enrichment feeds a dependent component, which runs after it', async () => {
    await configure([
      component('search', { config: { path: '/movies' }, contextFieldEnrichment: [{ contextField: 'movieId', expression: 'response[0].id' }] }),
      component('detail', { config: { path: '/echo', queryParams: [{ parameter: 'id', value: { contextField: 'movieId' } }] } }),
    ]);
    const result = await query(['detail', 'search']);
    expect(result.components.detail.response[0].query).toEqual({ id: 'tt1' });
    expect(stub.requests.map((r) => r.path)).toEqual(['/movies', '/echo']);
  });

  it('componentResponse reads another component, which runs even when not requested and is not returned', async () => {
    await configure([
      component('movie', { config: { path: '/movies' } }),
      component('cast', {
        config: { path: '/actors', queryParams: [{ parameter: '_id', value: "`componentResponse('movie')[0].actors`" }], queryParamsOptions: { arrayFormat: 'bracket' } },
      }),
    ]);
    const result = await query(['cast']);
    expect(Object.keys(result.components)).toEqual(['cast']);
    expect(result.components.cast.response).toEqual([
      { id: 'nm1', name: 'Actor nm1' },
      { id: 'nm2', name: 'Actor nm2' },
    ]);
  });

  it('dependencies chain: a chain of 6 components passes a value along', async () => {
    const chain = Array.from({ length: 6 }, (_, i) =>
      component(`c${i}`, {
        config: { path: '/echo', queryParams: [{ parameter: 'n', value: i === 0 ? '0' : `\`contextField('v${i - 1}') + '${i}'\`` }] },
        contextFieldEnrichment: [{ contextField: `v${i}`, expression: 'response[0].query.n' }],
      }),
    );
    await configure(chain);
    const result = await query(['c5']);
    expect(result.components.c5.response[0].query.n).toBe('012345');
  });

  it('independent components run concurrently', async () => {
    let arrived = 0;
    let release!: () => void;
    const allArrived = new Promise<void>((r) => (release = r));
    stub.on('/barrier', async () => {
      if (++arrived === 3) release();
      // Each call waits for the other two: run one after another, they would all time out.
      const ok = await Promise.race([allArrived.then(() => true), new Promise((r) => setTimeout(() => r(false), 2_000))]);
      return { body: [{ concurrent: ok }] };
    });
    await configure(['x', 'y', 'z'].map((code) => component(code, { config: { path: '/barrier' } })));
    const result = await query(['x', 'y', 'z']);
    for (const code of ['x', 'y', 'z']) expect(result.components[code].response).toEqual([{ concurrent: true }]);
  });

  it('a component starts as soon as its own dependencies are done, not level by level', async () => {
    // slowRoot is held until fastChild's dependent has called: level-by-level execution would deadlock.
    let childCalled!: () => void;
    const childCall = new Promise<void>((r) => (childCalled = r));
    stub.on('/held', async () => {
      const ok = await Promise.race([childCall.then(() => true), new Promise((r) => setTimeout(() => r(false), 2_000))]);
      return { body: [{ releasedByChild: ok }] };
    });
    stub.on('/child', () => {
      childCalled();
      return { body: [{ child: true }] };
    });
    await configure([
      component('slowRoot', { config: { path: '/held' } }),
      component('fastRoot', { config: { path: '/movies' } }),
      component('fastChild', { config: { path: '/child' }, validityExpression: "componentResponse('fastRoot').length > 0" }),
      component('slowChild', { config: { path: '/movies' }, validityExpression: "componentResponse('slowRoot').length > 0" }),
    ]);
    const result = await query(['slowChild', 'fastChild', 'slowRoot']);
    expect(result.components.fastChild.status).toBe('VALID');
    expect(result.components.slowChild.status).toBe('VALID');
    // Level by level, fastChild would wait for slowRoot, which waits for fastChild: released by timeout only.
    expect(result.components.slowRoot.response).toEqual([{ releasedByChild: true }]);
  });

  it('a dependency cycle makes each component on it FAILED with the whole cycle path; the others still run', async () => {
    await configure([
      component('a', { config: { path: '/movies' }, validityExpression: "componentResponse('b') != null" }),
      component('b', { config: { path: '/movies' }, validityExpression: "componentResponse('a') != null" }),
      component('c', { config: { path: '/movies' } }),
    ]);
    const result = await query(['a', 'b', 'c']);
    expect(result.components.a).toEqual({ status: 'FAILED', error: 'Dependency cycle: a -> b -> a' });
    expect(result.components.b).toEqual({ status: 'FAILED', error: 'Dependency cycle: b -> a -> b' });
    expect(result.components.c.status).toBe('VALID');
  });
});

describe('Sub component output', () => {
  const parent = component('movies', {
    config: { path: '/movies' },
    subComponents: [{ propertyName: 'details', componentCodes: ['cast', 'echo'], contextField: 'movieId', expression: 'response.id' }],
  });
  const children = [
    component('cast', { config: { path: '/actors', queryParams: [{ parameter: '_id', value: ['nm1'] }], queryParamsOptions: { arrayFormat: 'bracket' } } }),
    component('echo', { config: { path: '/echo', queryParams: [{ parameter: 'movie', value: { contextField: 'movieId' } }] } }),
  ];

  it('with processSubComponents true, each record gets {subComponentCode: {status, response}} under the property name', async () => {
    await configure([parent, ...children]);
    const result = await query(['movies'], {}, { processSubComponents: true });
    const record = result.components.movies.response[0];
    expect(record.id).toBe('tt1');
    expect(Object.keys(record.details)).toEqual(['cast', 'echo']);
    expect(record.details.cast).toEqual({ status: 'VALID', response: [{ id: 'nm1', name: 'Actor nm1' }] });
    expect(record.details.echo.response[0].query).toEqual({ movie: 'tt1' });
  });

  it('sub components are processed only when processSubComponents is true', async () => {
    await configure([parent, ...children]);
    const result = await query(['movies']);
    expect(result.components.movies.response[0].details).toBeUndefined();
    expect(stub.requests).toHaveLength(1);
  });

  it('sub components of all records run concurrently, not one after another', async () => {
    let arrived = 0;
    let release!: () => void;
    const all = new Promise<void>((r) => (release = r));
    stub.on('/many', { body: [{ id: 'a' }, { id: 'b' }, { id: 'c' }, { id: 'd' }] });
    stub.on('/together', async (req) => {
      if (++arrived === 4) release();
      const ok = await Promise.race([all.then(() => true), new Promise((r) => setTimeout(() => r(false), 2_000))]);
      return { body: [{ id: req.query.get('id'), together: ok }] };
    });
    await configure([
      component('many', { config: { path: '/many' }, subComponents: [{ propertyName: 'sub', componentCodes: ['together'], contextField: 'id', expression: 'response.id' }] }),
      component('together', { config: { path: '/together', queryParams: [{ parameter: 'id', value: { contextField: 'id' } }] } }),
    ]);
    const result = await query(['many'], {}, { processSubComponents: true });
    expect(result.components.many.response.map((r: any) => r.sub.together.response[0])).toEqual([
      { id: 'a', together: true },
      { id: 'b', together: true },
      { id: 'c', together: true },
      { id: 'd', together: true },
    ]);
  });

  it('a failing sub component expression is reported FAILED inside the record', async () => {
    await configure([
      component('movies', {
        config: { path: '/movies' },
        subComponents: [{ propertyName: 'details', componentCodes: ['echo'], contextField: 'movieId', expression: 'response.missing.deeper' }],
      }),
      children[1],
    ]);
    const result = await query(['movies'], {}, { processSubComponents: true });
    expect(result.components.movies.response[0].details.echo).toEqual({ status: 'FAILED', error: expect.stringContaining('response.missing.deeper') });
  });
});

describe('POST /experience/template/_query', () => {
  it('answers the same shape and content as the component query for the components of the template', async () => {
    await configure([component('movie', { config: { path: '/movies' } }), component('none', { config: { path: '/empty' } })]);
    expect((await host.call('PUT', '/experience/templates/page', { templateCode: 'page', name: 'Page', componentCodes: ['movie', 'none'] })).status).toBe(200);
    const res = await host.call('POST', '/experience/template/_query', { templateCode: ['page'], context: {} });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.components)).toEqual(['movie', 'none']);
    expect(res.body.components.movie.status).toBe('VALID');
    const single = await host.call('POST', '/experience/template/_query', { templateCode: 'page' });
    expect(single.status).toBe(200);
  });

  it('an unknown template answers 404 naming it', async () => {
    const res = await host.call('POST', '/experience/template/_query', { templateCode: ['nope'], context: {} });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toContain('nope');
  });
});

describe('bad queries', () => {
  it('unknown component codes answer 404 naming them', async () => {
    await configure([component('movie', { config: { path: '/movies' } })]);
    const res = await host.call('POST', '/experience/components/_query', { componentCodes: ['movie', 'ghost', 'phantom'], context: {} });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('Unknown component codes: ghost, phantom');
  });

  it('a body that is not JSON, or lacks componentCodes, answers 400', async () => {
    expect((await host.call('POST', '/experience/components/_query', 'nope')).status).toBe(400);
    const missing = await host.call('POST', '/experience/components/_query', { context: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('componentCodes');
    expect((await host.call('POST', '/experience/template/_query', { context: {} })).status).toBe(400);
  });
});
