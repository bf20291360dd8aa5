import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GraphEvent } from '../../functions/ports/event-bus';
import { CUSTOMER_A, CUSTOMER_B, FAST_JOBS, graphHeaders, startTestHost, waitForJob, type TestHost } from '../support/local-host';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';

let host: TestHost;
let stub: StubUpstream;
const A = graphHeaders(CUSTOMER_A);
const B = graphHeaders(CUSTOMER_B);
const api = (method: string, path: string, body?: unknown, headers = A) => host.call(method, `/_api/v1${path}`, body, headers);
const triggers = (method: string, path: string, body?: unknown, headers = A) => host.call(method, path, body, headers);

beforeAll(async () => {
  [host, stub] = await Promise.all([startTestHost({ jobTuning: FAST_JOBS }), startStubUpstream()]);
  stub.on('/hook', { status: 204, text: '' });
  stub.on('/flaky', (req) => ({ status: stub.requests.filter((r) => r.path === '/flaky').length < 2 ? 500 : 200, body: { ok: true } }));
  await api('POST', '/collections', { collectionCode: 'orders', name: 'Orders', description: '', dataRecordIdentifierProperty: 'orderId' });
});
afterAll(() => Promise.all([host.stop(), stub.stop()]));
beforeEach(() => {
  stub.requests.length = 0;
});

const bigOrderTrigger = (url: string) => ({
  trigger: {
    triggerCode: 'bigOrder',
    name: 'Big order',
    description: 'Tell the warehouse',
    eventType: 'DataRecordCreated',
    criteria: '`event.data.new.total > 100`',
    job: {
      jobType: 'callWebservice',
      params: {
        url,
        method: 'POST',
        headers: { 'x-order': '`event.data.new.orderId`', 'x-fixed': 'yes' },
        body: { order: '`event.data.new.orderId`', lines: '`event.data.new.lines.length`', customer: '`event.data.customerCode`' },
        searchParams: { source: 'graph', collection: '`event.data.dataCollectionCode`' },
      },
    },
  },
});

async function jobsOf(triggerCode: string) {
  await host.jobRunner.idle();
  const list = (await api('GET', '/jobs?limit=100')).body.data as any[];
  return list.filter((j) => j.triggerCode === triggerCode);
}

describe('Trigger creation (POST {base_url}/triggers)', () => {
  it('answers 201; 409 for a duplicate code; 400 when the criteria do not parse', async () => {
    const res = await triggers('POST', '/triggers', bigOrderTrigger(`${stub.url}/hook`));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ triggerCode: 'bigOrder', eventType: 'DataRecordCreated' });
    expect((await triggers('POST', '/triggers', bigOrderTrigger(`${stub.url}/hook`))).status).toBe(409);
    const bad = structuredClone(bigOrderTrigger(stub.url));
    bad.trigger.triggerCode = 'bad';
    bad.trigger.criteria = 'event.data.new.total >';
    const res400 = await triggers('POST', '/triggers', bad);
    expect(res400.status).toBe(400);
    expect(res400.body.error.message).toContain('trigger.criteria');
    expect((await triggers('GET', '/triggers/bad')).status).toBe(404);
  });

  it('GET /triggers lists, GET /triggers/{code} reads; another customer sees none of them', async () => {
    expect((await triggers('GET', '/triggers')).body.data.map((t: any) => t.triggerCode)).toEqual(['bigOrder']);
    expect((await triggers('GET', '/triggers/bigOrder')).body.name).toBe('Big order');
    expect((await triggers('GET', '/triggers', undefined, B)).body.data).toEqual([]);
    expect((await triggers('GET', '/triggers/bigOrder', undefined, B)).status).toBe(404);
  });
});

describe('a trigger runs its job when the event type matches and the criteria hold (INTERFACE.md "Events" rule 2)', () => {
  it('criteria true: the callWebservice request arrives exactly as configured, expressions evaluated over event', async () => {
    const written = await api('POST', '/collections/orders/records', { dataRecords: [{ orderId: 'o-1', total: 250, lines: [1, 2, 3] }] });
    expect(written.status).toBe(200);
    const [job] = await jobsOf('bigOrder');
    expect(job).toMatchObject({ jobType: 'callWebservice', status: 'SUCCEEDED', triggerCode: 'bigOrder', result: { status: 204 } });
    expect(job.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(stub.requests).toHaveLength(1);
    const call = stub.requests[0];
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/hook');
    expect(Object.fromEntries(call.query)).toEqual({ source: 'graph', collection: 'orders' });
    expect(call.headers['x-order']).toBe('o-1');
    expect(call.headers['x-fixed']).toBe('yes');
    expect(call.headers['content-type']).toBe('application/json');
    expect(JSON.parse(call.body)).toEqual({ order: 'o-1', lines: 3, customer: 'acme' });
  });

  it('criteria false, or another event type: no job', async () => {
    const before = (await jobsOf('bigOrder')).length;
    await api('POST', '/collections/orders/records', { dataRecords: [{ orderId: 'o-2', total: 5, lines: [] }] });
    await api('POST', '/collections/orders/records', { dataRecords: [{ orderId: 'o-1', total: 999, lines: [] }] });
    expect(await jobsOf('bigOrder')).toHaveLength(before);
    expect(stub.requests).toHaveLength(0);
  });

  it("another customer's events never fire this customer's triggers", async () => {
    const before = (await jobsOf('bigOrder')).length;
    await api('POST', '/collections', { collectionCode: 'orders', name: 'Orders', description: '', dataRecordIdentifierProperty: 'orderId' }, B);
    expect((await api('POST', '/collections/orders/records', { dataRecords: [{ orderId: 'b-1', total: 10_000, lines: [] }] }, B)).status).toBe(200);
    expect(await jobsOf('bigOrder')).toHaveLength(before);
    expect(stub.requests).toHaveLength(0);
  });

  it('the same event delivered twice starts the trigger job once', async () => {
    await api('POST', '/collections/orders/records', { dataRecords: [{ orderId: 'o-3', total: 500, lines: [] }] });
    const jobs = await jobsOf('bigOrder');
    const event = (await api('GET', '/events?collectionCode=orders&type=DataRecordCreated&limit=1')).body.data[0] as GraphEvent;
    expect(event.data.new!.orderId).toBe('o-3');
    await host.eventBus.publish([event]);
    await host.eventBus.publish([event]);
    const after = await jobsOf('bigOrder');
    expect(after).toHaveLength(jobs.length);
    expect(after.filter((j) => j.eventId === event.id)).toHaveLength(1);
  });

  it('a criteria expression that raises an error starts nothing; the error is the trigger last error', async () => {
    const def = structuredClone(bigOrderTrigger(`${stub.url}/hook`));
    def.trigger.triggerCode = 'fragile';
    def.trigger.criteria = 'event.data.new.customer.name == "x"';
    expect((await triggers('POST', '/triggers', def)).status).toBe(201);
    await api('POST', '/collections/orders/records', { dataRecords: [{ orderId: 'o-4', total: 1, lines: [] }] });
    expect(await jobsOf('fragile')).toEqual([]);
    const fragile = (await triggers('GET', '/triggers/fragile')).body;
    expect(fragile.lastError.message).toContain('event.data.new.customer.name');
    expect(fragile.lastError.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(fragile.lastError.time).toISOString()).toBe(fragile.lastError.time);
    expect((await triggers('DELETE', '/triggers/fragile')).status).toBe(204);
    expect((await triggers('DELETE', '/triggers/fragile')).status).toBe(404);
  });

  it('a failing web service is retried (bounded) before the job fails or succeeds', async () => {
    const def = structuredClone(bigOrderTrigger(`${stub.url}/flaky`));
    def.trigger.triggerCode = 'flaky';
    def.trigger.eventType = 'DataRecordRemoved';
    def.trigger.criteria = 'true';
    def.trigger.job.params.body = { order: '`event.data.old.orderId`' } as never;
    def.trigger.job.params.headers = {} as never;
    expect((await triggers('POST', '/triggers', def)).status).toBe(201);
    expect((await api('DELETE', '/collections/orders/records/o-4')).status).toBe(204);
    const [job] = await jobsOf('flaky');
    expect(job).toMatchObject({ status: 'SUCCEEDED', result: { status: 200 } });
    expect(stub.requests.filter((r) => r.path === '/flaky')).toHaveLength(2);
  });
});
