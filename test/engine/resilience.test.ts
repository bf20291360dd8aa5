import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../support/local-host';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';
import { component, connection } from '../support/engine-config';

let host: TestHost;
let stub: StubUpstream;
let calls = 0;

beforeAll(async () => {
  [host, stub] = await Promise.all([startTestHost(), startStubUpstream()]);
  stub.on('/once-busy', () => (++calls % 2 === 1 ? { status: 503, headers: { 'retry-after': '0' }, body: {} } : { body: [{ ok: true }] }));
  stub.on('/down', { status: 500, body: {} });
  stub.on('/movies', (req) => ({ body: [{ id: req.query.get('id') }] }));
});
afterAll(() => Promise.all([host.stop(), stub.stop()]));

async function setup(code: string, connectionConfig: Record<string, unknown>, fields: Parameters<typeof component>[1]) {
  const res = await host.call('PUT', '/engine-config', {
    engineConfig: { connections: [connection(code, stub.url, connectionConfig)], components: [component(code, { ...fields, config: { connectionCode: code, ...fields?.config } })], templates: [] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
const query = async (code: string, context = {}) =>
  (await host.call('POST', '/experience/components/_query', { componentCodes: [code], context })).body.components[code];

describe('per-connection resilience (COMPAT.md: timeouts, retries honouring Retry-After, circuit breakers)', () => {
  it('without retries a 503 is FAILED; with retries the next attempt, after Retry-After, succeeds', async () => {
    calls = 0;
    await setup('busy', {}, { config: { path: '/once-busy' } });
    expect(await query('busy')).toEqual({ status: 'FAILED', error: expect.stringContaining('HTTP 503') });
    calls = 0;
    await setup('busy', { retry: { attempts: 2 } }, { config: { path: '/once-busy' } });
    expect(await query('busy')).toEqual({ status: 'VALID', response: [{ ok: true }] });
    expect(calls).toBe(2);
  });

  it('after failureThreshold consecutive failures the circuit opens: calls fail at once without reaching the web service', async () => {
    await setup('fragile', { circuitBreaker: { failureThreshold: 2, openSeconds: 60 } }, { config: { path: '/down' } });
    const before = stub.requests.length;
    expect((await query('fragile')).error).toContain('HTTP 500');
    expect((await query('fragile')).error).toContain('HTTP 500');
    const refused = await query('fragile');
    expect(refused.status).toBe('FAILED');
    expect(refused.error).toMatch(/circuit of connection fragile is open after 2 consecutive failures/);
    expect(stub.requests.length - before).toBe(2);
  });

  it('circuitBreaker false turns it off', async () => {
    await setup('stubborn', { circuitBreaker: false }, { config: { path: '/down' } });
    const before = stub.requests.length;
    for (let i = 0; i < 7; i++) expect((await query('stubborn')).error).toContain('HTTP 500');
    expect(stub.requests.length - before).toBe(7);
  });

  it('cacheTtlSeconds reuses a GET response for the same request, marked with cacheInfo.cachedTS', async () => {
    await setup('cached', {}, { cacheTtlSeconds: 60, config: { path: '/movies', queryParams: [{ parameter: 'id', value: { contextField: 'id' } }] } });
    const before = stub.requests.length;
    const first = await query('cached', { id: 'tt1' });
    expect(first).toEqual({ status: 'VALID', response: [{ id: 'tt1' }] });
    const second = await query('cached', { id: 'tt1' });
    expect(second.response).toEqual([{ id: 'tt1' }]);
    expect(typeof second.cacheInfo.cachedTS).toBe('number');
    const other = await query('cached', { id: 'tt2' });
    expect(other.response).toEqual([{ id: 'tt2' }]);
    expect(other.cacheInfo).toBeUndefined();
    expect(stub.requests.length - before).toBe(2);
  });
});
