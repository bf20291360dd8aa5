import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpTimeoutError, type HttpClient } from '../../../ports/http-client';
import { startStubUpstream, type StubUpstream } from '../../../../test/support/stub-upstream';
import { FetchHttpClient } from '../fetch-http-client';
import { UndiciHttpClient } from '../undici-http-client';

let stub: StubUpstream;
const undici = new UndiciHttpClient();
beforeAll(async () => {
  stub = await startStubUpstream();
  stub.on('/echo', (req) => ({ status: 201, headers: { 'x-answer': 'yes' }, body: { method: req.method, body: req.body, header: req.headers['x-test'] } }));
  stub.on('/slow', { body: {}, delayMs: 500 });
  stub.on('/text', { text: 'plain' });
});
afterAll(async () => {
  await undici.close();
  await stub.stop();
});

// The local host uses undici's request(); Lambda uses Node's fetch: both keep the port's promises.
describe.each([
  ['UndiciHttpClient (local host)', undici as HttpClient],
  ['FetchHttpClient (Lambda)', new FetchHttpClient() as HttpClient],
])('%s', (_name, client) => {
  it('sends method, headers and body; answers status, lower-case headers and the body text', async () => {
    const res = await client.request({ url: `${stub.url}/echo`, method: 'post', headers: { 'x-test': 'hi', 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(res.status).toBe(201);
    expect(res.headers['x-answer']).toBe('yes');
    expect(JSON.parse(res.body)).toEqual({ method: 'POST', body: '{"a":1}', header: 'hi' });
    expect((await client.request({ url: `${stub.url}/text`, method: 'GET' })).body).toBe('plain');
  });

  it('a call past its deadline rejects with HttpTimeoutError', async () => {
    await expect(client.request({ url: `${stub.url}/slow`, method: 'GET', timeoutMs: 50 })).rejects.toBeInstanceOf(HttpTimeoutError);
  });

  it('keeps the connection alive between calls', async () => {
    stub.requests.length = 0;
    await client.request({ url: `${stub.url}/text`, method: 'GET' });
    await client.request({ url: `${stub.url}/text`, method: 'GET' });
    expect(stub.requests.map((r) => r.headers.connection ?? 'keep-alive')).toEqual(['keep-alive', 'keep-alive']);
  });

  it('a refused connection rejects with an error, not a status', async () => {
    await expect(client.request({ url: 'http://127.0.0.1:9/', method: 'GET' })).rejects.toThrow();
  });
});
