import { describe, expect, it } from 'vitest';
import { SAMPLE_COLLECTIONS } from '../../core/sample-data/collections';
import type { Actor, Movie, User } from '../../core/sample-data/records';
import type { ApiEvent, ApiResult } from '../../http/api-event';
import { create } from '../sample-data';

const movies = SAMPLE_COLLECTIONS.get('collection-movie')!.records as readonly Movie[];
const actors = SAMPLE_COLLECTIONS.get('collection-actor')!.records as readonly Actor[];
const users = SAMPLE_COLLECTIONS.get('collection-user')!.records as readonly User[];
const silentHarbor = movies.find((m) => m.primaryTitle === 'The Silent Harbor')!;

/**
 * An API Gateway HTTP API (payload 2.0) event as AWS sends it for a public route: no
 * authorizer context, repeated query parameters comma-joined in queryStringParameters.
 */
function apiEvent(collectionCode: string, rawQueryString = '', headers: Record<string, string> = {}): ApiEvent {
  const rawPath = `/api/collections/${encodeURIComponent(collectionCode)}`;
  const queryStringParameters: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(rawQueryString)) {
    queryStringParameters[name] = name in queryStringParameters ? `${queryStringParameters[name]},${value}` : value;
  }
  const event = {
    version: '2.0',
    routeKey: 'GET /api/collections/{collectionCode}',
    rawPath,
    rawQueryString,
    headers: {
      accept: 'application/json',
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
      'user-agent': 'curl/8.5.0',
      'x-amzn-trace-id': 'Root=1-65f0c0de-0123456789abcdef01234567',
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
      ...headers,
    },
    ...(rawQueryString === '' ? {} : { queryStringParameters }),
    pathParameters: { collectionCode },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: { method: 'GET', path: rawPath, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'curl/8.5.0' },
      requestId: 'Jf0pXhBvDoEEMkw=',
      routeKey: 'GET /api/collections/{collectionCode}',
      stage: '$default',
      time: '07/Jun/2024:10:15:30 +0000',
      timeEpoch: 1717755330000,
    },
    isBase64Encoded: false,
  };
  return event as unknown as ApiEvent;
}

const handler = create();

async function get(collectionCode: string, rawQueryString = '', headers?: Record<string, string>): Promise<{ result: ApiResult; body: unknown }> {
  const result = await handler(apiEvent(collectionCode, rawQueryString, headers));
  return { result, body: JSON.parse(result.body ?? '') };
}

describe('GET /api/collections/{collectionCode}', () => {
  it('answers 200 with the JSON array of the collection', async () => {
    const { result, body } = await get('collection-user');
    expect(result.statusCode).toBe(200);
    expect(result.headers?.['content-type']).toMatch(/^application\/json/);
    expect(body).toEqual(users);
  });

  it('serves the three collections of the interface', async () => {
    expect((await get('collection-movie', '_limit=3')).body).toEqual(movies.slice(0, 3));
    expect((await get('collection-actor', '_limit=3')).body).toEqual(actors.slice(0, 3));
    expect((await get('collection-user', '_limit=3')).body).toEqual(users.slice(0, 3));
  });

  it('reads the parameters from rawQueryString: _id', async () => {
    expect((await get('collection-movie', `_id=${silentHarbor.id}`)).body).toEqual([silentHarbor]);
  });

  it('reads repeated _id[] from rawQueryString, not from the comma-joined queryStringParameters', async () => {
    const raw = `_id%5B%5D=${movies[9]!.id}&_id%5B%5D=${movies[4]!.id}`;
    expect((await get('collection-movie', raw)).body).toEqual([movies[4], movies[9]]);
  });

  it('filters with _query, case-insensitively, and pages', async () => {
    const { body } = await get('collection-movie', '_query=primaryTitle:the%20silent%20harbor');
    expect(body).toEqual([silentHarbor]);
    const comedies = movies.filter((m) => m.genres.includes('Comedy'));
    expect((await get('collection-movie', '_query=genres:comedy&_page=2&_limit=5')).body).toEqual(comedies.slice(5, 10));
  });

  it('is public: ignores any credentials', async () => {
    const headers = { authorization: 'Bearer not-a-real-key', 'x-customer-code': 'nobody' };
    const { result, body } = await get('collection-movie', '_limit=1', headers);
    expect(result.statusCode).toBe(200);
    expect(body).toEqual(movies.slice(0, 1));
  });

  it('answers 404 {error:{code,message}} for an unknown collection', async () => {
    const { result, body } = await get('collection-book');
    expect(result.statusCode).toBe(404);
    expect(body).toEqual({ error: { code: 'NotFound', message: expect.stringContaining('collection-book') } });
  });

  it.each(['_limit=abc', '_query=genres', '_offset=2&_page=1', '_query=title:x'])('answers 400 {error:{code,message}} for %s', async (raw) => {
    const { result, body } = await get('collection-movie', raw);
    expect(result.statusCode).toBe(400);
    expect(body).toEqual({ error: { code: 'InvalidParameter', message: expect.any(String) } });
  });

  it('answers 400 when the path parameter is missing', async () => {
    const event = apiEvent('collection-movie');
    const result = await handler({ ...event, pathParameters: {} });
    expect(result.statusCode).toBe(400);
    expect(JSON.parse(result.body ?? '')).toEqual({ error: { code: 'BadRequest', message: 'Missing path parameter collectionCode' } });
  });

  it('accepts an event without rawQueryString', async () => {
    const event = apiEvent('collection-user');
    const result = await handler({ ...event, rawQueryString: undefined as unknown as string });
    expect(JSON.parse(result.body ?? '')).toEqual(users);
  });
});
