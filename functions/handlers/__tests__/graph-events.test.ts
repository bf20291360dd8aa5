import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLocalDynamo, type LocalDynamoFixture } from '../../../test/support/dynamo';
import { EventLog } from '../../core/graph/events/event-log';
import type { Deps } from '../../deps';
import type { ApiEvent } from '../../http/api-event';
import type { GraphEvent } from '../../ports/event-bus';
import { create } from '../graph-events';

const expected = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../events/expected/dynamodb-stream-record-${name}.json`, import.meta.url), 'utf8')) as GraphEvent[];

let dynamo: LocalDynamoFixture;
let handler: ReturnType<typeof create>;
const NOW = Date.parse('2024-06-10T00:00:00Z');

/** `GET /_api/v1/events` as API Gateway sends it once the authorizer has resolved the customer. */
function apiEvent(customerCode: string | undefined, rawQueryString = ''): ApiEvent {
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    queryStringParameters[name] = name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
  }
  return {
    version: '2.0',
    routeKey: 'GET /_api/v1/events',
    rawPath: '/_api/v1/events',
    rawQueryString,
    headers: { 'x-customer-code': customerCode ?? '' },
    ...(rawQueryString === '' ? {} : { queryStringParameters }),
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: { method: 'GET', path: '/_api/v1/events', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' },
      requestId: 'Jf0pXhBvDoEEMkw=',
      routeKey: 'GET /_api/v1/events',
      stage: '$default',
      time: '10/Jun/2024:00:00:00 +0000',
      timeEpoch: NOW,
      ...(customerCode ? { authorizer: { lambda: { customerCode, scope: 'graph' } } } : {}),
    },
    isBase64Encoded: false,
  } as unknown as ApiEvent;
}

async function get(customerCode: string | undefined, query = '') {
  const result = await handler(apiEvent(customerCode, query));
  return { status: result.statusCode, body: JSON.parse(result.body ?? 'null') };
}

beforeAll(async () => {
  dynamo = await withLocalDynamo();
  const log = new EventLog(dynamo.store, { now: () => NOW });
  for (const event of [...expected('insert'), ...expected('modify'), ...expected('remove')]) await log.record(event);
  handler = create({ store: dynamo.store, eventLog: log, clock: { now: () => NOW } } as unknown as Deps);
});
afterAll(async () => {
  await dynamo?.stop();
});

describe('GET /_api/v1/events', () => {
  it("answers {data} with the request customer's events, newest first", async () => {
    const [created] = expected('insert');
    const [updated, unchanged] = expected('modify');
    const { status, body } = await get('acme');
    expect(status).toBe(200);
    expect(body).toStrictEqual({ data: [unchanged, updated, created] });
  });

  it('never shows another customer\'s events', async () => {
    expect((await get('globex')).body).toStrictEqual({ data: expected('remove') });
    expect((await get('initech')).body).toStrictEqual({ data: [] });
  });

  it('filters by collectionCode and type, and limits', async () => {
    expect((await get('acme', 'type=DataRecordCreated')).body.data.map((e: GraphEvent) => e.type)).toEqual(['DataRecordCreated']);
    expect((await get('acme', 'type=DataRecordUpdated&limit=1')).body).toStrictEqual({ data: [expected('modify')[1]] });
    expect((await get('acme', 'collectionCode=collection-movie')).body.data).toHaveLength(3);
    expect((await get('acme', 'collectionCode=collection-user')).body.data).toEqual([]);
    expect((await get('acme', 'limit=1000')).body.data).toHaveLength(3);
  });

  it('answers 400 for an unknown type or a bad limit', async () => {
    for (const query of ['type=DataRecordDeleted', 'type=DataRecordCreated&type=DataRecordUpdated', 'limit=0', 'limit=1001', 'limit=abc', 'limit=1.5', 'limit=-1', 'limit=', 'collectionCode=']) {
      const { status, body } = await get('acme', query);
      expect(status, query).toBe(400);
      expect(body.error.code, query).toBe('ValidationError');
    }
    expect((await get('acme', 'type=Nope')).body.error.message).toMatch(/query\.type/);
  });

  it('answers 401 without a resolved customer', async () => {
    expect((await get(undefined)).status).toBe(401);
  });
});
