import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create as createBucketsHandler } from '../../functions/handlers/graph-buckets';
import type { ApiEvent } from '../../functions/http/api-event';
import { CUSTOMER_A, CUSTOMER_B, startTestHost, type TestHost } from '../support/local-host';

type Customer = typeof CUSTOMER_A;

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(() => host?.stop());

const API = '/_api/v1';

interface Answer {
  status: number;
  body: any;
  bytes: Buffer;
  headers: Headers;
}

function graphHeaders(customer: Customer = CUSTOMER_A, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${customer.apiKey}`, 'x-customer-code': customer.customerCode, ...extra };
}

/** A data graph call with a customer's API key; `body` is JSON unless it is bytes. */
async function call(
  method: string,
  path: string,
  options: { body?: unknown; customer?: Customer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const isBytes = Buffer.isBuffer(options.body) || typeof options.body === 'string';
  const headers = options.headers ?? graphHeaders(options.customer, isBytes ? {} : { 'content-type': 'application/json' });
  const res = await fetch(host.url + API + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : isBytes ? (options.body as string | Uint8Array) : JSON.stringify(options.body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  let body: unknown;
  try {
    body = bytes.length > 0 ? JSON.parse(bytes.toString('utf8')) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, body, bytes, headers: res.headers };
}

/** A request whose path goes on the wire exactly as written (fetch would normalise `..`). */
function rawCall(method: string, path: string, body?: Buffer, customer: Customer = CUSTOMER_A): Promise<{ status: number; body: any }> {
  const url = new URL(host.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path: API + path, headers: { ...graphHeaders(customer), 'content-type': 'application/octet-stream' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The API Gateway event of a data graph route for customer A, as Lambda receives it. */
function graphEvent(routeKey: string, pathParameters: Record<string, string>, body?: string): ApiEvent {
  return {
    routeKey,
    pathParameters,
    headers: {},
    body,
    isBase64Encoded: false,
    requestContext: { authorizer: { lambda: { customerCode: CUSTOMER_A.customerCode, scope: 'graph' } } },
  } as unknown as ApiEvent;
}

/** A real multipart/form-data body, as a browser or curl -F would send it. */
async function multipart(files: [filename: string, content: string | Buffer][], field = 'file[]'): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [filename, content] of files) form.append(field, new Blob([content]), filename);
  form.append('note', 'a plain field is ignored');
  const res = new Response(form);
  return { body: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') ?? '' };
}

async function upload(bucketCode: string, files: [string, string | Buffer][], customer: Customer = CUSTOMER_A): Promise<Answer> {
  const { body, contentType } = await multipart(files);
  return call('POST', `/buckets/${bucketCode}/upload`, { body, headers: graphHeaders(customer, { 'content-type': contentType }) });
}

async function filenames(bucketCode: string, query = '', customer: Customer = CUSTOMER_A): Promise<string[]> {
  const res = await call('GET', `/buckets/${bucketCode}/files${query}`, { customer });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.files.map((f: { filename: string }) => f.filename);
}

/** Every key of the blob store: what is really on disk. */
async function allBlobKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await host.deps.blobStore.list('', { cursor });
    keys.push(...page.items.map((i) => i.key));
    cursor = page.cursor;
  } while (cursor);
  return keys;
}

const BINARY = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37 + 11) % 256));

describe('default buckets', () => {
  it('incoming, processed, invalidated and skipped exist for every customer without being created', async () => {
    for (const customer of [CUSTOMER_A, CUSTOMER_B]) {
      const res = await call('GET', '/buckets', { customer });
      expect(res.status).toBe(200);
      expect(res.body.buckets.slice(0, 4)).toEqual([
        { bucketCode: 'incoming', name: 'incoming', isDefault: true },
        { bucketCode: 'processed', name: 'processed', isDefault: true },
        { bucketCode: 'invalidated', name: 'invalidated', isDefault: true },
        { bucketCode: 'skipped', name: 'skipped', isDefault: true },
      ]);
    }
    const one = await call('GET', '/buckets/skipped');
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ bucketCode: 'skipped', name: 'skipped', isDefault: true });
  });

  it('PUT on a default bucket sets its name (200, not created) and it still cannot be deleted (409)', async () => {
    const put = await call('PUT', '/buckets/processed', { body: { dataBucketEntry: { name: 'Processed files' } }, customer: CUSTOMER_B });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ bucketCode: 'processed', name: 'Processed files', isDefault: true });
    expect((await call('GET', '/buckets/processed', { customer: CUSTOMER_B })).body.name).toBe('Processed files');
    expect((await call('GET', '/buckets/processed')).body.name).toBe('processed');

    const del = await call('DELETE', '/buckets/processed', { customer: CUSTOMER_B });
    expect(del.status).toBe(409);
    expect(del.body.error.message).toContain('default bucket');
    expect((await call('GET', '/buckets/processed', { customer: CUSTOMER_B })).status).toBe(200);
  });

  it('files can be written to a default bucket straight away', async () => {
    const put = await call('PUT', '/buckets/invalidated/files/first.json', { body: '{"a":1}' });
    expect(put.status).toBe(201);
    expect(await filenames('invalidated')).toEqual(['first.json']);
    expect((await call('DELETE', '/buckets/invalidated/files/first.json')).status).toBe(204);
  });
});

describe('custom bucket lifecycle', () => {
  it('PUT creates (201), PUT again renames (200, same createdAt), GET and list show it', async () => {
    const created = await call('PUT', '/buckets/exports-2024', { body: { dataBucketEntry: { name: 'Exports' } } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ bucketCode: 'exports-2024', name: 'Exports', isDefault: false, createdAt: expect.any(String) });
    expect(new Date(created.body.createdAt).toISOString()).toBe(created.body.createdAt);

    const renamed = await call('PUT', '/buckets/exports-2024', { body: { dataBucketEntry: { name: 'Yearly exports' } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ ...created.body, name: 'Yearly exports' });

    expect((await call('GET', '/buckets/exports-2024')).body).toEqual(renamed.body);
    const list = await call('GET', '/buckets');
    expect(list.body.buckets.map((b: { bucketCode: string }) => b.bucketCode)).toEqual(['incoming', 'processed', 'invalidated', 'skipped', 'exports-2024']);
  });

  it('DELETE answers 409 while the bucket holds a file, 204 once empty, then 404', async () => {
    await call('PUT', '/buckets/scratch', { body: { dataBucketEntry: { name: 'Scratch' } } });
    expect((await call('PUT', '/buckets/scratch/files/keep.txt', { body: 'kept' })).status).toBe(201);

    const busy = await call('DELETE', '/buckets/scratch');
    expect(busy.status).toBe(409);
    expect(busy.body.error).toEqual({ code: 'Conflict', message: expect.stringContaining('still holds files') });
    expect((await call('GET', '/buckets/scratch')).status).toBe(200);

    expect((await call('DELETE', '/buckets/scratch/files/keep.txt')).status).toBe(204);
    expect((await call('DELETE', '/buckets/scratch')).status).toBe(204);
    expect((await call('GET', '/buckets/scratch')).status).toBe(404);
    expect((await call('DELETE', '/buckets/scratch')).status).toBe(404);
    expect((await call('GET', '/buckets')).body.buckets.map((b: { bucketCode: string }) => b.bucketCode)).not.toContain('scratch');
  });

  it('a bad bucket code or body is refused with 400', async () => {
    for (const code of ['-leading-dash', 'has.dot', 'x'.repeat(65), '..%2Fx', 'sp%20ace', '_under']) {
      const res = await call('PUT', `/buckets/${code}`, { body: { dataBucketEntry: { name: 'x' } } });
      expect(res.status, code).toBe(400);
      expect(res.body.error.code, code).toBe('InvalidBucketCode');
    }
    expect((await call('PUT', '/buckets/ok', { body: {} })).body.error.code).toBe('ValidationError');
    expect((await call('PUT', '/buckets/ok', { body: { dataBucketEntry: { name: '' } } })).status).toBe(400);
    expect((await call('PUT', '/buckets/ok', { body: '{nope', headers: graphHeaders(CUSTOMER_A, { 'content-type': 'application/json' }) })).body.error.code).toBe('InvalidJson');
    expect((await call('GET', '/buckets/ok')).status).toBe(404);
  });

  it('an unknown bucket answers 404 for every bucket and file call, and receives no file', async () => {
    const before = await allBlobKeys();
    const multipartBody = await multipart([['a.txt', 'a']]);
    const calls: [string, string, unknown?, Record<string, string>?][] = [
      ['GET', '/buckets/nope'],
      ['DELETE', '/buckets/nope'],
      ['GET', '/buckets/nope/files'],
      ['GET', '/buckets/nope/files?filename=a.txt'],
      ['DELETE', '/buckets/nope/files?pattern=*'],
      ['PUT', '/buckets/nope/files/a.txt', 'a'],
      ['GET', '/buckets/nope/files/a.txt'],
      ['DELETE', '/buckets/nope/files/a.txt'],
      ['POST', '/buckets/nope/upload', multipartBody.body, graphHeaders(CUSTOMER_A, { 'content-type': multipartBody.contentType })],
    ];
    for (const [method, path, body, headers] of calls) {
      const res = await call(method, path, { body, headers });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error, `${method} ${path}`).toEqual({ code: 'NotFound', message: 'Bucket nope does not exist' });
    }
    expect(await allBlobKeys()).toEqual(before);
  });
});

describe('writing files', () => {
  it('PUT /files/{filename} stores the raw body and answers 201 with filename, size and lastModified', async () => {
    const res = await call('PUT', '/buckets/incoming/files/raw.bin', { body: BINARY, headers: graphHeaders(CUSTOMER_A, { 'content-type': 'application/octet-stream' }) });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ filename: 'raw.bin', size: BINARY.length, lastModified: expect.any(String) });
    expect(Math.abs(Date.parse(res.body.lastModified) - Date.now())).toBeLessThan(60_000);

    const text = await call('PUT', '/buckets/incoming/files/raw.jsonl', { body: '{"id":1}\n{"id":2}\n', headers: graphHeaders(CUSTOMER_A, { 'content-type': 'application/x-ndjson' }) });
    expect(text.body).toMatchObject({ filename: 'raw.jsonl', size: 18 });

    const replaced = await call('PUT', '/buckets/incoming/files/raw.jsonl', { body: '{"id":3}\n', headers: graphHeaders(CUSTOMER_A, { 'content-type': 'text/plain' }) });
    expect(replaced.status).toBe(201);
    expect(replaced.body.size).toBe(9);
    expect((await call('GET', '/buckets/incoming/files/raw.jsonl')).bytes.toString()).toBe('{"id":3}\n');
  });

  it('an empty body makes an empty file', async () => {
    const res = await call('PUT', '/buckets/incoming/files/empty.txt', { body: '' });
    expect(res.status).toBe(201);
    expect(res.body.size).toBe(0);
    expect((await call('DELETE', '/buckets/incoming/files/empty.txt')).status).toBe(204);
  });

  it('POST /upload stores every file[] part of a multipart body and answers 201 with them', async () => {
    await call('PUT', '/buckets/uploads', { body: { dataBucketEntry: { name: 'Uploads' } } });
    const res = await upload('uploads', [
      ['movies.jsonl', '{"id":"tt1"}\n{"id":"tt2"}\n'],
      ['bytes.bin', BINARY],
      ['ünïcødé name.csv', 'a,b\n1,2\n'],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.files).toEqual([
      { filename: 'movies.jsonl', size: 26, lastModified: expect.any(String) },
      { filename: 'bytes.bin', size: BINARY.length, lastModified: expect.any(String) },
      { filename: 'ünïcødé name.csv', size: 8, lastModified: expect.any(String) },
    ]);
    expect(await filenames('uploads')).toEqual(['bytes.bin', 'movies.jsonl', 'ünïcødé name.csv']);
    expect((await call('GET', '/buckets/uploads/files/bytes.bin')).bytes.equals(BINARY)).toBe(true);
    expect((await call('GET', `/buckets/uploads/files/${encodeURIComponent('ünïcødé name.csv')}`)).bytes.toString()).toBe('a,b\n1,2\n');
  });

  it('POST /upload without a file[] part, or not multipart, answers 400', async () => {
    const other = await multipart([['a.txt', 'a']], 'file');
    const noFiles = await call('POST', '/buckets/uploads/upload', { body: other.body, headers: graphHeaders(CUSTOMER_A, { 'content-type': other.contentType }) });
    expect(noFiles.status).toBe(400);
    expect(noFiles.body.error.code).toBe('NoFiles');

    const notMultipart = await call('POST', '/buckets/uploads/upload', { body: { file: 'x' } });
    expect(notMultipart.status).toBe(400);
    expect(notMultipart.body.error.code).toBe('InvalidMultipart');

    const broken = await call('POST', '/buckets/uploads/upload', {
      body: Buffer.from('--b\r\nContent-Disposition: form-data; name="file[]"; filename="x"\r\n\r\nno closing boundary'),
      headers: graphHeaders(CUSTOMER_A, { 'content-type': 'multipart/form-data; boundary=b' }),
    });
    expect(broken.status).toBe(400);
  });
});

describe('listing files', () => {
  beforeAll(async () => {
    await call('PUT', '/buckets/catalogue', { body: { dataBucketEntry: { name: 'Catalogue' } } });
    const files: [string, string][] = [];
    for (let i = 1; i <= 12; i++) files.push([`movies-${String(i).padStart(5, '0')}.jsonl`, `{"batch":${i}}\n`]);
    files.push(['movies-1.jsonl', '{}\n'], ['actors.jsonl', '{}\n'], ['notes.csv', 'a\n'], ['data.json', '{}'], ['movies-00001.jsonl.bak', 'x']);
    expect((await upload('catalogue', files)).status).toBe(201);
  });

  it('answers every file in filename order with size and ISO 8601 lastModified', async () => {
    const res = await call('GET', '/buckets/catalogue/files');
    expect(res.status).toBe(200);
    expect(res.body.files).toHaveLength(17);
    expect(res.body.files[0]).toEqual({ filename: 'actors.jsonl', size: 3, lastModified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/) });
    const names = res.body.files.map((f: { filename: string }) => f.filename);
    expect(names).toEqual([...names].sort());
  });

  it('pattern *.jsonl matches by suffix; ? matches exactly one character; the whole name must match', async () => {
    const jsonl = await filenames('catalogue', '?pattern=*.jsonl');
    expect(jsonl).toHaveLength(14);
    expect(jsonl).not.toContain('movies-00001.jsonl.bak');
    expect(jsonl).not.toContain('data.json');

    const batches = await filenames('catalogue', '?pattern=movies-000??.jsonl');
    expect(batches).toEqual(Array.from({ length: 12 }, (_, i) => `movies-${String(i + 1).padStart(5, '0')}.jsonl`));
    expect(await filenames('catalogue', '?pattern=movies-0000?.jsonl')).toHaveLength(9);
    expect(await filenames('catalogue', '?pattern=notes.csv')).toEqual(['notes.csv']);
    expect(await filenames('catalogue', '?pattern=notes')).toEqual([]);
    expect(await filenames('catalogue', '?pattern=*')).toHaveLength(17);
    // Regular-expression characters are literal.
    expect(await filenames('catalogue', `?pattern=${encodeURIComponent('data.jso[n]')}`)).toEqual([]);
    expect(await filenames('catalogue', `?pattern=${encodeURIComponent('.*')}`)).toEqual([]);
  });

  it('limit cuts the answer (default 100, at most 1,000); a bad limit or pattern answers 400', async () => {
    expect(await filenames('catalogue', '?limit=2')).toEqual(['actors.jsonl', 'data.json']);
    expect(await filenames('catalogue', '?pattern=movies-*&limit=3')).toEqual(['movies-00001.jsonl', 'movies-00001.jsonl.bak', 'movies-00002.jsonl']);
    expect(await filenames('catalogue', '?limit=1000')).toHaveLength(17);
    for (const query of ['?limit=0', '?limit=1001', '?limit=abc', '?limit=-1', '?limit=2.5', '?pattern=', `?pattern=${encodeURIComponent('a/*')}`]) {
      const res = await call('GET', `/buckets/catalogue/files${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it('a bucket with more files than the default limit answers 100', async () => {
    await call('PUT', '/buckets/many', { body: { dataBucketEntry: { name: 'Many' } } });
    const files: [string, string][] = Array.from({ length: 105 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'x']);
    expect((await upload('many', files)).status).toBe(201);
    expect(await filenames('many')).toHaveLength(100);
    expect(await filenames('many', '?limit=1000')).toHaveLength(105);
  });
});

describe('downloading files', () => {
  it('GET /files/{filename} and GET /files?filename= answer the exact bytes with a content type from the extension', async () => {
    const files: [string, string | Buffer, string][] = [
      ['binary.dat', BINARY, 'application/octet-stream'],
      ['records.jsonl', '{"id":1}\n', 'application/x-ndjson'],
      ['records.ndjson', '{"id":2}\n', 'application/x-ndjson'],
      ['doc.json', '{"a":[1,2]}', 'application/json'],
      ['table.csv', 'a,b\n', 'text/csv'],
    ];
    expect((await upload('incoming', files.map(([name, content]) => [name, content]))).status).toBe(201);
    for (const [filename, content, type] of files) {
      for (const path of [`/buckets/incoming/files/${filename}`, `/buckets/incoming/files?filename=${filename}`]) {
        const res = await call('GET', path);
        expect(res.status, path).toBe(200);
        expect(res.bytes.equals(Buffer.from(content)), path).toBe(true);
        expect(res.headers.get('content-type'), path).toBe(type);
        expect(res.headers.get('content-disposition'), path).toContain(`filename="${filename}"`);
      }
    }
  });

  it('an absent file answers 404 in both forms', async () => {
    for (const path of ['/buckets/incoming/files/absent.json', '/buckets/incoming/files?filename=absent.json']) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.error.message).toBe('File absent.json does not exist in bucket incoming');
    }
  });

  it('a file too large for a Lambda response answers 413 with a clear message', async () => {
    const large = Buffer.alloc(5 * 1024 * 1024, 'x');
    const put = await call('PUT', '/buckets/skipped/files/large.jsonl', { body: large, headers: graphHeaders(CUSTOMER_A, { 'content-type': 'application/octet-stream' }) });
    expect(put.status).toBe(201);
    expect(put.body.size).toBe(large.length);
    const res = await call('GET', '/buckets/skipped/files/large.jsonl');
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PayloadTooLarge');
    expect(res.body.error.message).toMatch(/large\.jsonl is 5242880 bytes; downloads through the API are limited to \d+ bytes/);
    expect((await call('DELETE', '/buckets/skipped/files/large.jsonl')).status).toBe(204);
  });
});

describe('deleting files', () => {
  it('DELETE /files/{filename} answers 204, then 404', async () => {
    await call('PUT', '/buckets/incoming/files/once.txt', { body: 'x' });
    expect((await call('DELETE', '/buckets/incoming/files/once.txt')).status).toBe(204);
    expect((await call('GET', '/buckets/incoming/files/once.txt')).status).toBe(404);
    const again = await call('DELETE', '/buckets/incoming/files/once.txt');
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NotFound');
  });

  it('DELETE /files?pattern= deletes the matching files only and answers how many', async () => {
    await call('PUT', '/buckets/purge', { body: { dataBucketEntry: { name: 'Purge' } } });
    await upload('purge', [
      ['a-1.jsonl', '1'],
      ['a-2.jsonl', '2'],
      ['a-10.jsonl', '10'],
      ['b-1.jsonl', '1'],
      ['a-1.csv', 'c'],
    ]);
    const res = await call('DELETE', '/buckets/purge/files?pattern=a-?.jsonl');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 2 });
    expect(await filenames('purge')).toEqual(['a-1.csv', 'a-10.jsonl', 'b-1.jsonl']);
    expect((await call('DELETE', '/buckets/purge/files?pattern=nothing*')).body).toEqual({ deleted: 0 });
    expect((await call('DELETE', '/buckets/purge/files?pattern=*')).body).toEqual({ deleted: 3 });
    expect(await filenames('purge')).toEqual([]);
    expect((await call('DELETE', '/buckets/purge')).status).toBe(204);
  });

  it('DELETE /files without a pattern answers 400 and deletes nothing', async () => {
    await call('PUT', '/buckets/incoming/files/stays.txt', { body: 'x' });
    const res = await call('DELETE', '/buckets/incoming/files');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('PatternRequired');
    expect((await call('DELETE', '/buckets/incoming/files?pattern=')).status).toBe(400);
    expect(await filenames('incoming', '?pattern=stays.txt')).toEqual(['stays.txt']);
  });
});

describe('filename attacks', () => {
  it('path traversal, encoded separators, NUL, backslash and control characters answer 400 and write nothing', async () => {
    const before = await allBlobKeys();
    // A literal `..` or `.` segment (also `%2E%2E`) is resolved by URL normalisation before
    // routing, as in any HTTP front: the request no longer names a file route and answers 404.
    for (const dots of ['..', '%2E%2E', '.', '%2e']) {
      for (const method of ['PUT', 'GET', 'DELETE']) {
        const res = await rawCall(method, `/buckets/incoming/files/${dots}`, method === 'PUT' ? Buffer.from('pwned') : undefined);
        expect([400, 404, 405], `${method} ${dots}`).toContain(res.status);
      }
    }
    const attacks = [
      '..%2F..%2Fglobex%2Fincoming%2Fstolen.txt',
      'a%2Fb',
      '%2Fabsolute',
      'a%00b',
      'a%5Cb',
      '..%5C..%5Cx',
      'tab%09name',
      'new%0Aline',
      'x'.repeat(256),
      encodeURIComponent('é'.repeat(128)),
    ];
    for (const attack of attacks) {
      for (const method of ['PUT', 'GET', 'DELETE']) {
        const res = await rawCall(method, `/buckets/incoming/files/${attack}`, method === 'PUT' ? Buffer.from('pwned') : undefined);
        expect(res.status, `${method} ${attack}`).toBe(400);
        expect(res.body.error.code, `${method} ${attack}`).toBe('InvalidFilename');
      }
      const query = await rawCall('GET', `/buckets/incoming/files?filename=${attack}`);
      expect(query.status, `?filename=${attack}`).toBe(400);
    }
    expect((await rawCall('GET', '/buckets/incoming/files?filename=')).status).toBe(400);

    const badUploads: [string, string][][] = [[['..', 'x']], [['../up.txt', 'x']], [['a\\b', 'x']], [['ok.txt', 'x'], ['sub/dir.txt', 'x']], [['', 'x']]];
    for (const files of badUploads) {
      const res = await upload('incoming', files);
      expect(res.status, JSON.stringify(files)).toBe(400);
      expect(res.body.error.code, JSON.stringify(files)).toBe('InvalidFilename');
    }
    // A bucket code is a key segment too.
    expect([400, 404]).toContain((await rawCall('PUT', '/buckets/%2E%2E/files/x.txt', Buffer.from('x'))).status);
    expect((await rawCall('PUT', '/buckets/..%2Fglobex/files/x.txt', Buffer.from('x'))).status).toBe(400);

    expect(await allBlobKeys()).toEqual(before);
  });

  it('the handler itself refuses . and .. as a filename, whatever the front did to the path', async () => {
    const handler = createBucketsHandler(host.deps);
    const before = await allBlobKeys();
    for (const filename of ['..', '.']) {
      for (const method of ['PUT', 'GET', 'DELETE']) {
        const res = await handler(graphEvent(`${method} ${API}/buckets/{bucketCode}/files/{filename}`, { bucketCode: 'incoming', filename }, 'pwned'));
        expect(res.statusCode, `${method} ${filename}`).toBe(400);
        expect(JSON.parse(String(res.body)).error.code).toBe('InvalidFilename');
      }
    }
    expect(await allBlobKeys()).toEqual(before);
  });

  it('a name with spaces, dots and unicode is fine, and 255 bytes is the limit', async () => {
    for (const name of ['..hidden..', '.profile', 'a b (1).json', 'x'.repeat(255), 'é'.repeat(127)]) {
      const res = await call('PUT', `/buckets/incoming/files/${encodeURIComponent(name)}`, { body: 'ok' });
      expect(res.status, name).toBe(201);
      expect(res.body.filename).toBe(name);
      expect((await call('DELETE', `/buckets/incoming/files/${encodeURIComponent(name)}`)).status).toBe(204);
    }
  });
});

describe('tenant isolation', () => {
  beforeAll(async () => {
    await call('PUT', '/buckets/private', { body: { dataBucketEntry: { name: 'A private' } } });
    await call('PUT', '/buckets/private/files/secret.json', { body: '{"owner":"acme"}' });
    await call('PUT', '/buckets/incoming/files/a-only.json', { body: '{"owner":"acme"}' });
  });

  it("customer B cannot see, read or delete A's buckets and files", async () => {
    const b = { customer: CUSTOMER_B };
    expect((await call('GET', '/buckets', b)).body.buckets.map((x: { bucketCode: string }) => x.bucketCode)).not.toContain('private');
    expect((await call('GET', '/buckets/private', b)).status).toBe(404);
    expect((await call('DELETE', '/buckets/private', b)).status).toBe(404);
    expect((await call('GET', '/buckets/private/files', b)).status).toBe(404);
    expect((await call('GET', '/buckets/private/files/secret.json', b)).status).toBe(404);
    expect(await filenames('incoming', '', CUSTOMER_B)).not.toContain('a-only.json');
    expect((await call('GET', '/buckets/incoming/files/a-only.json', b)).status).toBe(404);
    expect((await call('GET', '/buckets/incoming/files?filename=a-only.json', b)).status).toBe(404);
    expect((await call('DELETE', '/buckets/incoming/files/a-only.json', b)).status).toBe(404);
    expect((await call('DELETE', '/buckets/incoming/files?pattern=*', b)).body).toEqual({ deleted: 0 });

    expect((await call('GET', '/buckets/incoming/files/a-only.json')).bytes.toString()).toBe('{"owner":"acme"}');
    expect((await call('GET', '/buckets/private/files/secret.json')).status).toBe(200);
  });

  it("B's bucket of the same code is B's own, empty, with its own files", async () => {
    const created = await call('PUT', '/buckets/private', { body: { dataBucketEntry: { name: 'B private' } }, customer: CUSTOMER_B });
    expect(created.status).toBe(201);
    expect(await filenames('private', '', CUSTOMER_B)).toEqual([]);
    await call('PUT', '/buckets/private/files/secret.json', { body: '{"owner":"globex"}', customer: CUSTOMER_B });
    expect((await call('GET', '/buckets/private/files/secret.json')).bytes.toString()).toBe('{"owner":"acme"}');
    expect((await call('GET', '/buckets/private/files/secret.json', { customer: CUSTOMER_B })).bytes.toString()).toBe('{"owner":"globex"}');
    expect((await call('GET', '/buckets/private')).body.name).toBe('A private');
  });

  it("A's API key with B's customer code is refused (403)", async () => {
    const res = await call('GET', '/buckets', { headers: { authorization: `Bearer ${CUSTOMER_A.apiKey}`, 'x-customer-code': CUSTOMER_B.customerCode } });
    expect(res.status).toBe(403);
  });
});

describe('authentication', () => {
  it('the engine token is refused on every bucket route (401)', async () => {
    const engine = { authorization: `Bearer ${CUSTOMER_A.engineToken}`, 'x-customer-code': CUSTOMER_A.customerCode };
    const routes: [string, string][] = [
      ['GET', '/buckets'],
      ['PUT', '/buckets/x'],
      ['GET', '/buckets/incoming'],
      ['DELETE', '/buckets/x'],
      ['GET', '/buckets/incoming/files'],
      ['DELETE', '/buckets/incoming/files?pattern=*'],
      ['PUT', '/buckets/incoming/files/x.txt'],
      ['GET', '/buckets/incoming/files/x.txt'],
      ['DELETE', '/buckets/incoming/files/x.txt'],
      ['POST', '/buckets/incoming/upload'],
    ];
    for (const [method, path] of routes) {
      const res = await call(method, path, { headers: engine, body: method === 'PUT' || method === 'POST' ? 'x' : undefined });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    expect((await call('GET', '/buckets', { headers: { 'x-customer-code': CUSTOMER_A.customerCode } })).status).toBe(401);
  });
});
