import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLocalDynamo, type LocalDynamoFixture } from '../../../../test/support/dynamo';
import { ConditionFailedError, type Item, type Key, type Store } from '../../../ports/store';
import {
  DynamoDbStore,
  InvalidCursorError,
  ItemTooLargeError,
  MAX_ITEM_JSON_BYTES,
  UnprocessedItemsError,
} from '../dynamodb-store';
import { createTableInput } from '../table';

let dynamo: LocalDynamoFixture;
let store: Store;
let partitionCounter = 0;
/** A fresh partition per test, so tests never see each other's items. */
const freshPk = (name: string) => `${name}#${++partitionCounter}`;
const pad = (n: number) => String(n).padStart(4, '0');

beforeAll(async () => {
  dynamo = await withLocalDynamo();
  store = dynamo.store;
});
afterAll(async () => {
  await dynamo?.stop();
});

async function queryAll(pk: string, options: { prefix?: string; descending?: boolean; limit?: number }) {
  const pages: Item[][] = [];
  let cursor: string | undefined;
  do {
    const page = await store.query(pk, { ...options, cursor });
    pages.push(page.items);
    cursor = page.cursor;
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return pages;
}

describe('table', () => {
  it('declares pk/sk string keys, pay per request', () => {
    expect(createTableInput('t-x')).toEqual({
      TableName: 't-x',
      AttributeDefinitions: [
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
    });
  });
});

describe('get and put', () => {
  it('returns undefined for a missing item', async () => {
    expect(await store.get({ pk: freshPk('get'), sk: 'nope' })).toBeUndefined();
  });

  it('round-trips nested values, numbers as JS numbers', async () => {
    const pk = freshPk('nested');
    const item = {
      pk,
      sk: 'a',
      str: 'héllo ✓ 𝄞',
      empty: '',
      yes: true,
      no: false,
      nothing: null,
      int: 42,
      negative: -7,
      decimal: 0.1,
      big: Number.MAX_SAFE_INTEGER,
      zero: 0,
      list: [1, 'two', { three: [3, null, true] }, [], {}],
      map: { inner: { deeper: { n: 1.5, s: '', l: [{ x: -0.25 }] } }, emptyList: [], emptyMap: {} },
    };
    expect(await store.put(item)).toBeUndefined();
    const back = await store.get({ pk, sk: 'a' });
    expect(back).toEqual(item);
    expect(typeof back!.int).toBe('number');
    expect(typeof (back!.map as any).inner.deeper.n).toBe('number');
    expect(typeof (back!.list as any)[2].three[0]).toBe('number');
  });

  it('drops undefined attributes instead of failing', async () => {
    const pk = freshPk('undef');
    await store.put({ pk, sk: 'a', gone: undefined, kept: 1, nested: { gone: undefined, kept: 2 } });
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', kept: 1, nested: { kept: 2 } });
  });

  it('returns the replaced item (ALL_OLD) and replaces the whole item', async () => {
    const pk = freshPk('replace');
    expect(await store.put({ pk, sk: 'a', v: 1, old: 'x' })).toBeUndefined();
    expect(await store.put({ pk, sk: 'a', v: 2 })).toEqual({ pk, sk: 'a', v: 1, old: 'x' });
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', v: 2 });
  });

  it('ifNotExists: creates once, then ConditionFailedError', async () => {
    const pk = freshPk('ifNotExists');
    expect(await store.put({ pk, sk: 'a', v: 1 }, { ifNotExists: true })).toBeUndefined();
    const err = await store.put({ pk, sk: 'a', v: 2 }, { ifNotExists: true }).catch((e) => e);
    expect(err).toBeInstanceOf(ConditionFailedError);
    expect(err.name).toBe('ConditionFailedError');
    expect(err.isConditionFailed).toBe(true);
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', v: 1 });
  });

  it('ifExists: fails on a missing item, replaces an existing one', async () => {
    const pk = freshPk('ifExists');
    await expect(store.put({ pk, sk: 'a', v: 1 }, { ifExists: true })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await store.get({ pk, sk: 'a' })).toBeUndefined();
    await store.put({ pk, sk: 'a', v: 1 });
    expect(await store.put({ pk, sk: 'a', v: 2 }, { ifExists: true })).toEqual({ pk, sk: 'a', v: 1 });
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', v: 2 });
  });

  it('ifFieldEquals: optimistic concurrency on a version field', async () => {
    const pk = freshPk('ifFieldEquals');
    await store.put({ pk, sk: 'a', version: 1 });
    expect(await store.put({ pk, sk: 'a', version: 2 }, { ifFieldEquals: { field: 'version', value: 1 } })).toEqual({
      pk,
      sk: 'a',
      version: 1,
    });
    await expect(
      store.put({ pk, sk: 'a', version: 3 }, { ifFieldEquals: { field: 'version', value: 1 } }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', version: 2 });
    // A missing item never equals anything.
    await expect(
      store.put({ pk, sk: 'b', version: 1 }, { ifFieldEquals: { field: 'version', value: 0 } }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
  });

  it('ifFieldEquals: strings, booleans, null, odd field names, undefined means absent; no maps', async () => {
    const pk = freshPk('ifFieldEquals2');
    await store.put({ pk, sk: 'a', status: 'open', 'a.b': 'dotted', meta: { x: [1] }, gone: null });
    await store.put({ pk, sk: 'a', status: 'open', 'a.b': 'dotted', meta: { x: [1] }, gone: null }, {
      ifFieldEquals: { field: 'status', value: 'open' },
    });
    await store.put({ pk, sk: 'a', status: 'open', 'a.b': 'dotted', meta: { x: [1] }, gone: null }, {
      ifFieldEquals: { field: 'a.b', value: 'dotted' },
    });
    // Maps and lists are refused (dynalite would never find them equal; AWS would).
    await expect(
      store.put({ pk, sk: 'a' }, { ifFieldEquals: { field: 'meta', value: { x: [1] } } }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(store.put({ pk, sk: 'a' }, { ifFieldEquals: { field: 'meta', value: [1] } })).rejects.toBeInstanceOf(
      TypeError,
    );
    await store.put({ pk, sk: 'a', status: 'open', 'a.b': 'dotted', meta: { x: [1] }, flag: false }, {
      ifFieldEquals: { field: 'gone', value: null },
    });
    await store.put({ pk, sk: 'a', status: 'open', 'a.b': 'dotted', meta: { x: [1] } }, {
      ifFieldEquals: { field: 'flag', value: false },
    });
    await store.put({ pk, sk: 'a', status: 'closed' }, { ifFieldEquals: { field: 'gone', value: undefined } });
    await expect(
      store.put({ pk, sk: 'a', status: 'x' }, { ifFieldEquals: { field: 'status', value: undefined } }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(
      store.put({ pk, sk: 'a', status: 'x' }, { ifFieldEquals: { field: 'status', value: 'open' } }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', status: 'closed' });
  });

  it('refuses empty or non-string keys before sending', async () => {
    await expect(store.put({ pk: '', sk: 'a' })).rejects.toBeInstanceOf(TypeError);
    await expect(store.get({ pk: 'a', sk: 1 as unknown as string })).rejects.toBeInstanceOf(TypeError);
  });
});

describe('item size', () => {
  it('throws ItemTooLargeError before sending an item over ~390 KB', async () => {
    const pk = freshPk('big');
    const err = await store.put({ pk, sk: 'a', blob: 'x'.repeat(MAX_ITEM_JSON_BYTES) }).catch((e) => e);
    expect(err).toBeInstanceOf(ItemTooLargeError);
    expect(err.name).toBe('ItemTooLargeError');
    expect(err.message).toMatch(/400 KB/);
    expect(err.bytes).toBeGreaterThan(MAX_ITEM_JSON_BYTES);
    expect(await store.get({ pk, sk: 'a' })).toBeUndefined();
  });

  it('counts UTF-8 bytes, not characters', async () => {
    const pk = freshPk('big-utf8');
    // 140k three-byte characters: 420 KB of UTF-8, 140k UTF-16 units.
    await expect(store.put({ pk, sk: 'a', blob: '€'.repeat(140_000) })).rejects.toBeInstanceOf(ItemTooLargeError);
  });

  it('accepts an item just under the limit', async () => {
    const pk = freshPk('almost-big');
    const blob = 'y'.repeat(380 * 1024);
    await store.put({ pk, sk: 'a', blob });
    expect(((await store.get({ pk, sk: 'a' }))!.blob as string).length).toBe(blob.length);
  });
});

describe('delete', () => {
  it('returns the removed item, undefined when absent', async () => {
    const pk = freshPk('delete');
    await store.put({ pk, sk: 'a', v: 1, nested: { l: [1] } });
    expect(await store.delete({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', v: 1, nested: { l: [1] } });
    expect(await store.get({ pk, sk: 'a' })).toBeUndefined();
    expect(await store.delete({ pk, sk: 'a' })).toBeUndefined();
  });

  it('honours ifExists, ifNotExists and ifFieldEquals', async () => {
    const pk = freshPk('delete-cond');
    await expect(store.delete({ pk, sk: 'a' }, { ifExists: true })).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await store.delete({ pk, sk: 'a' }, { ifNotExists: true })).toBeUndefined();

    await store.put({ pk, sk: 'a', version: 3 });
    await expect(store.delete({ pk, sk: 'a' }, { ifNotExists: true })).rejects.toBeInstanceOf(ConditionFailedError);
    await expect(
      store.delete({ pk, sk: 'a' }, { ifFieldEquals: { field: 'version', value: 2 } }),
    ).rejects.toBeInstanceOf(ConditionFailedError);
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', version: 3 });
    expect(await store.delete({ pk, sk: 'a' }, { ifFieldEquals: { field: 'version', value: 3 } })).toEqual({
      pk,
      sk: 'a',
      version: 3,
    });

    await store.put({ pk, sk: 'b' });
    expect(await store.delete({ pk, sk: 'b' }, { ifExists: true })).toEqual({ pk, sk: 'b' });
    expect(await store.get({ pk, sk: 'b' })).toBeUndefined();
  });
});

describe('query', () => {
  let pk: string;
  const itemSks = Array.from({ length: 250 }, (_, i) => `item#${pad(i)}`);

  beforeAll(async () => {
    pk = freshPk('query');
    await store.batchWrite(
      [
        ...itemSks.map((sk, i) => ({ pk, sk, i })),
        // Before and after the prefix range, to show the prefix is applied at both ends.
        { pk, sk: 'aaa', i: -1 },
        { pk, sk: 'item', i: -2 },
        { pk, sk: 'itemz', i: -3 },
        { pk, sk: 'zzz', i: -4 },
        // Another partition.
        { pk: `${pk}x`, sk: 'item#0000', i: 0 },
      ],
      [],
    );
  });

  it('pages 250 prefixed items 100 at a time, ascending', async () => {
    const pages = await queryAll(pk, { prefix: 'item#', limit: 100 });
    expect(pages.map((p) => p.length).slice(0, 3)).toEqual([100, 100, 50]);
    expect(pages.flat().map((i) => i.sk)).toEqual(itemSks);
  });

  it('pages 250 prefixed items 100 at a time, descending', async () => {
    const pages = await queryAll(pk, { prefix: 'item#', limit: 100, descending: true });
    expect(pages.map((p) => p.length).slice(0, 3)).toEqual([100, 100, 50]);
    expect(pages.flat().map((i) => i.sk)).toEqual([...itemSks].reverse());
  });

  it('pages the whole partition without a prefix, in sk order', async () => {
    const asc = (await queryAll(pk, { limit: 100 })).flat().map((i) => i.sk);
    expect(asc).toEqual(['aaa', 'item', ...itemSks, 'itemz', 'zzz']);
    const desc = (await queryAll(pk, { limit: 100, descending: true })).flat().map((i) => i.sk);
    expect(desc).toEqual([...asc].reverse());
  });

  it('returns everything in one call without a limit, and no cursor at the end', async () => {
    const page = await store.query(pk, { prefix: 'item#' });
    expect(page.items).toHaveLength(250);
    expect(page.cursor).toBeUndefined();
    expect(page.items[0]).toEqual({ pk, sk: 'item#0000', i: 0 });
  });

  it('an empty partition gives an empty page', async () => {
    expect(await store.query(freshPk('empty'))).toEqual({ items: [] });
  });

  it('cursors are url-safe strings', async () => {
    const { cursor } = await store.query(pk, { limit: 1 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('rejects garbled or foreign cursors with InvalidCursorError', async () => {
    const { cursor } = await store.query(pk, { prefix: 'item#', limit: 10 });
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const bad = [
      'not a cursor!',
      '%%%',
      Buffer.from('{"pk":').toString('base64url'),
      b64(null),
      b64([pk, 'item#0001']),
      b64({ pk }),
      b64({ pk, sk: 1 }),
      b64({ pk, sk: 'item#0001', extra: 'x' }),
      b64({ pk: 'other', sk: 'item#0001' }),
      `${cursor}A`,
    ];
    for (const c of bad) {
      const err = await store.query(pk, { prefix: 'item#', cursor: c }).catch((e) => e);
      expect(err, c).toBeInstanceOf(InvalidCursorError);
      expect(err.name).toBe('InvalidCursorError');
      expect(err.isInvalidCursor).toBe(true);
    }
    // A cursor of another partition or another prefix is not accepted either.
    await expect(store.query(`${pk}x`, { cursor })).rejects.toBeInstanceOf(InvalidCursorError);
    await expect(store.query(pk, { prefix: 'zzz', cursor })).rejects.toBeInstanceOf(InvalidCursorError);
    // The real one still works.
    expect((await store.query(pk, { prefix: 'item#', cursor, limit: 1 })).items[0]!.sk).toBe('item#0010');
  });

  it('rejects a non-positive or fractional limit', async () => {
    await expect(store.query(pk, { limit: 0 })).rejects.toBeInstanceOf(RangeError);
    await expect(store.query(pk, { limit: 1.5 })).rejects.toBeInstanceOf(RangeError);
  });
});

describe('increment', () => {
  it('creates the item and field, adds, returns the new value', async () => {
    const pk = freshPk('inc');
    expect(await store.increment({ pk, sk: 'c' }, 'n')).toBe(1);
    expect(await store.increment({ pk, sk: 'c' }, 'n', 10)).toBe(11);
    expect(await store.increment({ pk, sk: 'c' }, 'n', -2.5)).toBe(8.5);
    expect(await store.increment({ pk, sk: 'c' }, 'other', 3)).toBe(3);
    expect(await store.get({ pk, sk: 'c' })).toEqual({ pk, sk: 'c', n: 8.5, other: 3 });
  });

  it('keeps the other fields of an existing item', async () => {
    const pk = freshPk('inc-keep');
    await store.put({ pk, sk: 'c', name: 'x', nested: { a: [1] } });
    expect(await store.increment({ pk, sk: 'c' }, 'hits')).toBe(1);
    expect(await store.get({ pk, sk: 'c' })).toEqual({ pk, sk: 'c', name: 'x', nested: { a: [1] }, hits: 1 });
  });

  it('is atomic: 50 parallel increments give 50', async () => {
    const key = { pk: freshPk('inc-par'), sk: 'c' };
    const results = await Promise.all(Array.from({ length: 50 }, () => store.increment(key, 'n')));
    expect(new Set(results).size).toBe(50);
    expect(Math.max(...results)).toBe(50);
    expect((await store.get(key))!.n).toBe(50);
  });

  it('fails on a field that is not a number, leaving it unchanged', async () => {
    const pk = freshPk('inc-str');
    await store.put({ pk, sk: 'c', n: 'five' });
    await expect(store.increment({ pk, sk: 'c' }, 'n')).rejects.toThrow();
    expect((await store.get({ pk, sk: 'c' }))!.n).toBe('five');
  });

  it('refuses to increment a key attribute', async () => {
    await expect(store.increment({ pk: freshPk('inc-key'), sk: 'c' }, 'sk')).rejects.toBeInstanceOf(TypeError);
  });
});

describe('batchWrite', () => {
  it('writes 1,000 puts then 1,000 deletes', async () => {
    const pk = freshPk('batch');
    const puts = Array.from({ length: 1000 }, (_, i) => ({ pk, sk: `r#${pad(i)}`, i, data: { tags: ['a', ''], ok: i % 2 === 0 } }));
    await store.batchWrite(puts, []);
    const all = (await queryAll(pk, { limit: 1000 })).flat();
    expect(all).toHaveLength(1000);
    expect(all[999]).toEqual(puts[999]);
    expect(await store.get({ pk, sk: 'r#0500' })).toEqual(puts[500]);

    await store.batchWrite([], puts.map(({ pk, sk }) => ({ pk, sk })));
    expect((await store.query(pk)).items).toEqual([]);
  });

  it('mixes puts and deletes in one call', async () => {
    const pk = freshPk('batch-mix');
    await store.batchWrite(Array.from({ length: 30 }, (_, i) => ({ pk, sk: `r#${pad(i)}` })), []);
    await store.batchWrite(
      Array.from({ length: 30 }, (_, i) => ({ pk, sk: `s#${pad(i)}` })),
      Array.from({ length: 30 }, (_, i) => ({ pk, sk: `r#${pad(i)}` })),
    );
    const sks = (await store.query(pk)).items.map((i) => i.sk);
    expect(sks).toEqual(Array.from({ length: 30 }, (_, i) => `s#${pad(i)}`));
  });

  it('does nothing for empty lists', async () => {
    await store.batchWrite([], []);
  });

  it('keeps the last put of a repeated key, refuses a key both put and deleted', async () => {
    const pk = freshPk('batch-dup');
    await store.batchWrite([{ pk, sk: 'a', v: 1 }, { pk, sk: 'a', v: 2 }], [{ pk, sk: 'z' }, { pk, sk: 'z' }]);
    expect(await store.get({ pk, sk: 'a' })).toEqual({ pk, sk: 'a', v: 2 });
    await expect(store.batchWrite([{ pk, sk: 'a' }], [{ pk, sk: 'a' }])).rejects.toBeInstanceOf(TypeError);
  });

  it('checks every item size before writing anything', async () => {
    const pk = freshPk('batch-big');
    const puts: (Item & Key)[] = Array.from({ length: 100 }, (_, i) => ({ pk, sk: `r#${pad(i)}` }));
    puts.push({ pk, sk: 'huge', blob: 'x'.repeat(400 * 1024) });
    await expect(store.batchWrite(puts, [])).rejects.toBeInstanceOf(ItemTooLargeError);
    expect((await store.query(pk)).items).toEqual([]);
  });
});

describe('batchWrite retries UnprocessedItems', () => {
  /**
   * dynalite never returns UnprocessedItems, so this wraps the real client: each
   * BatchWriteItem sends only the first half of its requests and hands the rest back.
   */
  function halvingClient(real: DynamoDBDocumentClient, opts: { processNothing?: boolean } = {}) {
    const stats = { calls: 0, inFlight: 0, maxInFlight: 0 };
    const client = {
      async send(command: { input: any }) {
        if (!(command instanceof BatchWriteCommand)) return real.send(command as any);
        stats.calls++;
        stats.inFlight++;
        stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
        try {
          const [table, requests] = Object.entries(command.input.RequestItems!)[0]!;
          if (opts.processNothing) {
            await new Promise((r) => setTimeout(r, 1));
            return { UnprocessedItems: { [table]: requests } };
          }
          const cut = Math.ceil(requests.length / 2);
          await real.send(new BatchWriteCommand({ RequestItems: { [table]: requests.slice(0, cut) } }));
          const rest = requests.slice(cut);
          return { UnprocessedItems: rest.length ? { [table]: rest } : {} };
        } finally {
          stats.inFlight--;
        }
      },
    };
    return { client: client as unknown as DynamoDBDocumentClient, stats };
  }

  it('retries until every request is written, at most 4 calls in flight', async () => {
    const { client, stats } = halvingClient(dynamo.client);
    const retrying = new DynamoDbStore({ tableName: dynamo.tableName, client, batchRetry: { baseDelayMs: 1 } });
    const pk = freshPk('retry');
    await retrying.batchWrite(Array.from({ length: 250 }, (_, i) => ({ pk, sk: `r#${pad(i)}` })), []);
    expect((await store.query(pk)).items).toHaveLength(250);
    // 10 chunks of 25 need 13 -> 7 -> 4 -> 2 -> 1: 5 calls each.
    expect(stats.calls).toBe(50);
    expect(stats.maxInFlight).toBeLessThanOrEqual(4);
    expect(stats.maxInFlight).toBeGreaterThan(1);
  });

  it('gives up after maxAttempts with UnprocessedItemsError', async () => {
    const { client, stats } = halvingClient(dynamo.client, { processNothing: true });
    const retrying = new DynamoDbStore({
      tableName: dynamo.tableName,
      client,
      batchRetry: { baseDelayMs: 1, maxAttempts: 8 },
    });
    const pk = freshPk('retry-fail');
    const err = await retrying.batchWrite([{ pk, sk: 'a' }], []).catch((e) => e);
    expect(err).toBeInstanceOf(UnprocessedItemsError);
    expect(err.unprocessed).toBe(1);
    expect(stats.calls).toBe(8);
  });
});

describe('batchGet', () => {
  it('returns the items that exist, across chunks of 100, ignoring absent and repeated keys', async () => {
    const { store, stop } = await withLocalDynamo();
    try {
      const puts = Array.from({ length: 230 }, (_, i) => ({ pk: 'bg', sk: `k${String(i).padStart(3, '0')}`, n: i }));
      await store.batchWrite(puts, []);
      const keys = [...puts.map(({ pk, sk }) => ({ pk, sk })), { pk: 'bg', sk: 'absent' }, { pk: 'bg', sk: 'k000' }];
      const found = await store.batchGet(keys);
      expect(found).toHaveLength(230);
      expect(found.map((i) => i.n).sort((a, b) => Number(a) - Number(b))).toEqual(puts.map((p) => p.n));
      expect(await store.batchGet([])).toEqual([]);
    } finally {
      await stop();
    }
  });
});

describe('query startAfter', () => {
  it('resumes after a given sort key, exclusive, in both directions', async () => {
    const { store, stop } = await withLocalDynamo();
    try {
      await store.batchWrite(['a', 'b', 'c', 'd'].map((sk) => ({ pk: 'sa', sk })), []);
      expect((await store.query('sa', { startAfter: 'b' })).items.map((i) => i.sk)).toEqual(['c', 'd']);
      expect((await store.query('sa', { startAfter: 'c', descending: true })).items.map((i) => i.sk)).toEqual(['b', 'a']);
    } finally {
      await stop();
    }
  });
});
