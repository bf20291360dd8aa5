import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../ports/blob-store';
import { FilesystemBlobStore } from '../local/filesystem-blob-store';
import { S3BlobStore } from '../aws/s3-blob-store';
import { s3rverClient, startS3rver } from '../../../test/support/s3rver';

/**
 * One contract, two adapters: whatever the domain can observe through the BlobStore port is
 * the same on the local host (a folder) and in AWS (S3, here its s3rver twin).
 */
interface Subject {
  store: BlobStore;
  stop(): Promise<void>;
}

const adapters: [string, () => Promise<Subject>][] = [
  [
    'FilesystemBlobStore',
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'blob-contract-'));
      return { store: new FilesystemBlobStore({ root }), stop: () => rm(root, { recursive: true, force: true }) };
    },
  ],
  [
    'S3BlobStore (s3rver)',
    async () => {
      const s3rver = await startS3rver();
      const client = s3rverClient(s3rver.endpoint);
      return {
        store: new S3BlobStore({ bucketName: s3rver.bucketName, client }),
        stop: async () => {
          client.destroy();
          await s3rver.stop();
        },
      };
    },
  ],
];

async function bytesOf(stream: Readable | undefined): Promise<Buffer> {
  if (!stream) throw new Error('expected a stream');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** A stream of `size` pseudo-random bytes in 64 KiB chunks, never held whole. */
function chunkedStream(size: number, seed = 7): { stream: Readable; expected: Buffer } {
  const expected = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    expected[i] = x >>> 24;
  }
  async function* chunks() {
    for (let offset = 0; offset < size; offset += 64 * 1024) yield expected.subarray(offset, offset + 64 * 1024);
  }
  return { stream: Readable.from(chunks()), expected };
}

describe.each(adapters)('BlobStore contract: %s', (_name, make) => {
  let subject: Subject;
  let store: BlobStore;
  beforeAll(async () => {
    subject = await make();
    store = subject.store;
  }, 30_000);
  afterAll(() => subject?.stop());

  it('put of bytes answers the size and date, and get answers the same bytes', async () => {
    const before = Date.now();
    const body = Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]);
    const info = await store.put('put/bytes.bin', body);
    expect(info.key).toBe('put/bytes.bin');
    expect(info.size).toBe(body.length);
    // S3 dates have one-second precision.
    expect(info.lastModified).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(info.lastModified).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await bytesOf(await store.get('put/bytes.bin'))).toEqual(body);
  });

  it('put of a stream stores every byte', async () => {
    const info = await store.put('put/stream.txt', Readable.from(['line 1\n', 'line 2\n', 'ünïcødé\n']));
    expect(info.size).toBe(Buffer.byteLength('line 1\nline 2\nünïcødé\n'));
    expect((await bytesOf(await store.get('put/stream.txt'))).toString('utf8')).toBe('line 1\nline 2\nünïcødé\n');
  });

  it('put of a 5 MB stream stores every byte (a multipart upload on S3)', async () => {
    const { stream, expected } = chunkedStream(5 * 1024 * 1024 + 123);
    const info = await store.put('put/large.bin', stream);
    expect(info.size).toBe(expected.length);
    const back = await bytesOf(await store.get('put/large.bin'));
    expect(back.length).toBe(expected.length);
    expect(back.equals(expected)).toBe(true);
  });

  it('put of an empty body stores an empty blob', async () => {
    expect((await store.put('put/empty', Buffer.alloc(0))).size).toBe(0);
    expect((await bytesOf(await store.get('put/empty'))).length).toBe(0);
    expect((await store.head('put/empty'))?.size).toBe(0);
  });

  it('put replaces an existing blob', async () => {
    await store.put('put/replace.txt', Buffer.from('first version, longer'));
    await store.put('put/replace.txt', Buffer.from('second'));
    expect((await bytesOf(await store.get('put/replace.txt'))).toString()).toBe('second');
    expect((await store.head('put/replace.txt'))?.size).toBe(6);
  });

  it('head answers key, size and date; get and head answer undefined for an absent key', async () => {
    const written = await store.put('head/a.json', Buffer.from('{"a":1}'));
    expect(await store.head('head/a.json')).toEqual({ key: 'head/a.json', size: 7, lastModified: written.lastModified });
    expect(await store.head('head/missing.json')).toBeUndefined();
    expect(await store.get('head/missing.json')).toBeUndefined();
    expect(await store.head('nowhere/at/all')).toBeUndefined();
    expect(await store.get('nowhere/at/all')).toBeUndefined();
  });

  it('list answers the keys under a prefix in key order, with sizes', async () => {
    await store.put('order/b.txt', Buffer.from('bb'));
    await store.put('order/a.txt', Buffer.from('a'));
    await store.put('order/a-z.txt', Buffer.from('az'));
    await store.put('order/B.txt', Buffer.from('B'));
    await store.put('order/c', Buffer.from('c'));
    await store.put('orderly/not-me.txt', Buffer.from('x'));
    const page = await store.list('order/');
    expect(page.items.map((i) => i.key)).toEqual(['order/B.txt', 'order/a-z.txt', 'order/a.txt', 'order/b.txt', 'order/c']);
    expect(page.items.map((i) => i.size)).toEqual([1, 2, 1, 2, 1]);
    expect(page.cursor).toBeUndefined();
    expect((await store.list('order/a')).items.map((i) => i.key)).toEqual(['order/a-z.txt', 'order/a.txt']);
    expect((await store.list('order')).items.map((i) => i.key)).toContain('orderly/not-me.txt');
    expect((await store.list('none/')).items).toEqual([]);
  });

  it('list pages with a limit and a cursor: 25 keys by 10', async () => {
    const keys = Array.from({ length: 25 }, (_, i) => `paging/file-${String(i).padStart(3, '0')}.jsonl`);
    for (const key of keys) await store.put(key, Buffer.from(key));
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list('paging/', { limit: 10, cursor });
      pageSizes.push(page.items.length);
      seen.push(...page.items.map((i) => i.key));
      cursor = page.cursor;
    } while (cursor);
    expect(pageSizes).toEqual([10, 10, 5]);
    expect(seen).toEqual(keys);
  });

  it('a page that ends exactly at the last key may carry a cursor, whose next page is empty', async () => {
    for (let i = 0; i < 4; i++) await store.put(`exact/k${i}`, Buffer.from('x'));
    const first = await store.list('exact/', { limit: 4 });
    expect(first.items).toHaveLength(4);
    if (first.cursor) expect((await store.list('exact/', { limit: 4, cursor: first.cursor })).items).toEqual([]);
  });

  it('delete removes a blob and answers true; false when it was absent', async () => {
    await store.put('delete/one.txt', Buffer.from('1'));
    await store.put('delete/two.txt', Buffer.from('2'));
    expect(await store.delete('delete/one.txt')).toBe(true);
    expect(await store.head('delete/one.txt')).toBeUndefined();
    expect(await store.get('delete/one.txt')).toBeUndefined();
    expect(await store.delete('delete/one.txt')).toBe(false);
    expect(await store.delete('delete/never')).toBe(false);
    expect((await store.list('delete/')).items.map((i) => i.key)).toEqual(['delete/two.txt']);
    expect(await store.delete('delete/two.txt')).toBe(true);
    expect((await store.list('delete/')).items).toEqual([]);
  });

  it('move puts the bytes under the new key and removes the old one, replacing any blob there', async () => {
    await store.put('move/from/a file ü.jsonl', Buffer.from('{"id":1}\n'));
    await store.put('move/to/occupied.jsonl', Buffer.from('old'));
    await store.move('move/from/a file ü.jsonl', 'move/to/deeper/a file ü.jsonl');
    expect(await store.head('move/from/a file ü.jsonl')).toBeUndefined();
    expect((await bytesOf(await store.get('move/to/deeper/a file ü.jsonl'))).toString()).toBe('{"id":1}\n');

    await store.put('move/from/b.jsonl', Buffer.from('new'));
    await store.move('move/from/b.jsonl', 'move/to/occupied.jsonl');
    expect((await bytesOf(await store.get('move/to/occupied.jsonl'))).toString()).toBe('new');
    expect((await store.list('move/from/')).items).toEqual([]);
  });

  it('move of an absent blob fails and creates nothing', async () => {
    await expect(store.move('move/absent', 'move/target')).rejects.toThrow(/move\/absent/);
    expect(await store.head('move/target')).toBeUndefined();
  });
});

describe('FilesystemBlobStore specifics', () => {
  let root: string;
  let store: FilesystemBlobStore;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'blob-fs-'));
    store = new FilesystemBlobStore({ root: join(root, 'files') });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('refuses keys that could leave the root, and writes nothing', async () => {
    for (const key of ['../escape', 'a/../../escape', '/absolute', 'a//b', 'a/./b', 'a\\b', 'a\u0000b', '.tmp/x', '', 'a/']) {
      await expect(store.put(key, Buffer.from('x')), JSON.stringify(key)).rejects.toThrow(/Invalid blob key/);
      await expect(store.get(key), JSON.stringify(key)).rejects.toThrow(/Invalid blob key/);
      await expect(store.delete(key), JSON.stringify(key)).rejects.toThrow(/Invalid blob key/);
    }
    await expect(store.list('../')).rejects.toThrow(/Invalid blob key prefix/);
    await expect(store.move('a', '../b')).rejects.toThrow(/Invalid blob key/);
    expect(await readdir(root)).toEqual([]);
  });

  it('lists nested keys in S3 byte order (a folder sorts as its name plus /)', async () => {
    // s3rver lists in its own folder-walk order here; S3 and this adapter use UTF-8 byte order.
    for (const key of ['n/a.txt', 'n/a-z.txt', 'n/a/nested.txt', 'n/ab', 'n/b']) await store.put(key, Buffer.from('x'));
    expect((await store.list('n/')).items.map((i) => i.key)).toEqual(['n/a-z.txt', 'n/a.txt', 'n/a/nested.txt', 'n/ab', 'n/b']);
    const first = await store.list('n/', { limit: 2 });
    expect(first.items.map((i) => i.key)).toEqual(['n/a-z.txt', 'n/a.txt']);
    const second = await store.list('n/', { limit: 2, cursor: first.cursor });
    expect(second.items.map((i) => i.key)).toEqual(['n/a/nested.txt', 'n/ab']);
    expect((await store.list('n/a/')).items.map((i) => i.key)).toEqual(['n/a/nested.txt']);
  });

  it('leaves no temp file behind and never lists the temp folder', async () => {
    await store.put('t/a', Buffer.from('a'));
    await store.put('t/b', Readable.from(['b']));
    expect(await readdir(join(root, 'files', '.tmp'))).toEqual([]);
    expect((await store.list('')).items.map((i) => i.key).filter((k) => !k.startsWith('n/'))).toEqual(['t/a', 't/b']);
  });

  it('a failing stream leaves neither a partial blob nor a temp file', async () => {
    async function* failing() {
      yield Buffer.from('partial');
      throw new Error('source broke');
    }
    await expect(store.put('t/broken', Readable.from(failing()))).rejects.toThrow('source broke');
    expect(await store.head('t/broken')).toBeUndefined();
    expect(await readdir(join(root, 'files', '.tmp'))).toEqual([]);
  });

  it('delete removes folders left empty', async () => {
    await store.put('gone/deep/x', Buffer.from('x'));
    await store.delete('gone/deep/x');
    expect(await readdir(join(root, 'files'))).not.toContain('gone');
  });
});
