import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_A, CUSTOMER_B, startTestHost, type TestHost } from '../../../test/support/local-host';
import { toRecordItem } from '../../core/graph/records/record-item';
import type { GraphEvent } from '../../ports/event-bus';

let host: TestHost;
const delivered: GraphEvent[] = [];
const graphHeaders = (customer: { customerCode: string; apiKey: string }) => ({
  authorization: `Bearer ${customer.apiKey}`,
  'x-customer-code': customer.customerCode,
});

beforeAll(async () => {
  host = await startTestHost();
  host.eventBus.subscribe(async (event) => {
    delivered.push(event);
  });
});
afterAll(async () => {
  await host?.stop();
});

describe('the local host: record write -> stream record -> stream handler -> bus -> event log', () => {
  it('delivers the lifecycle events of a record before each write returns, and lists them newest first', async () => {
    const record = { dataRecordIdentifier: 'tt1', title: 'One', '@iat': 1717755330123, '@uat': 1717755330123 };
    const item = toRecordItem(CUSTOMER_A.customerCode, 'movies', record);
    await host.deps.store.put(item, { ifNotExists: true });
    expect(delivered.map((e) => e.type)).toEqual(['DataRecordCreated']);
    const updated = toRecordItem(CUSTOMER_A.customerCode, 'movies', { ...record, '@uat': 1717755331000 }, 2);
    await host.deps.store.put(updated, { ifFieldEquals: { field: 'version', value: 1 } });
    await expect(host.deps.store.put(updated, { ifFieldEquals: { field: 'version', value: 1 } })).rejects.toThrow();
    await host.deps.store.delete({ pk: item.pk, sk: item.sk });
    expect(delivered.map((e) => e.type)).toEqual(['DataRecordCreated', 'DataRecordUpdated', 'DataRecordRemoved']);
    expect(delivered[1]!.data).toStrictEqual({ customerCode: 'acme', dataCollectionCode: 'movies', old: record, new: updated.record });

    const res = await host.call('GET', '/_api/v1/events', undefined, graphHeaders(CUSTOMER_A));
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: GraphEvent) => e.id).sort()).toEqual(delivered.map((e) => e.id).sort());
    expect(res.body.data[0].type).toBe('DataRecordRemoved');

    const other = await host.call('GET', '/_api/v1/events', undefined, graphHeaders(CUSTOMER_B));
    expect(other.body).toEqual({ data: [] });
    const bad = await host.call('GET', '/_api/v1/events?limit=5000', undefined, graphHeaders(CUSTOMER_A));
    expect(bad.status).toBe(400);
  });

  it('does not emit for configuration writes', async () => {
    const before = delivered.length;
    await host.deps.store.put({ pk: 'ENGINE#acme', sk: 'CONNECTION#c', body: {} });
    expect(delivered).toHaveLength(before);
  });
});
