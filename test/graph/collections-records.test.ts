import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphEvent } from '../../functions/ports/event-bus';
import { CUSTOMER_A, CUSTOMER_B, graphHeaders, startTestHost, type TestHost } from '../support/local-host';

let host: TestHost;
const events: GraphEvent[] = [];
const A = graphHeaders(CUSTOMER_A);
const B = graphHeaders(CUSTOMER_B);
const api = (method: string, path: string, body?: unknown, headers = A) => host.call(method, `/_api/v1${path}`, body, headers);

beforeAll(async () => {
  host = await startTestHost();
  host.eventBus.subscribe(async (event) => {
    events.push(event);
  });
});
afterAll(() => host.stop());

const movies = {
  collectionCode: 'movies',
  name: 'Movies',
  description: 'Films',
  dataRecordIdentifierProperty: 'id',
};
const movieSchema = {
  fields: {
    id: { jsonSchema: { type: 'string', title: 'Id' }, displaySchema: {}, options: { readonly: true, required: true } },
    title: { jsonSchema: { type: 'string', title: 'Title' }, displaySchema: {}, options: { readonly: false, required: true } },
    year: { jsonSchema: { type: 'integer', title: 'Year' }, displaySchema: {}, options: { required: false } },
    rating: { jsonSchema: { type: 'number', title: 'Rating' }, options: { required: false } },
    genres: { jsonSchema: { type: 'array', title: 'Genres', items: { type: 'string' } }, options: { indexed: true } },
    studio: { jsonSchema: { type: 'string', title: 'Studio' }, options: { indexed: true }, shadow: false, computed: false },
  },
};

describe('Collection (INTERFACE.md "Data graph API")', () => {
  it('POST /collections answers 201 with the collection; a duplicate code 409', async () => {
    const res = await api('POST', '/collections', movies);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject(movies);
    expect((await api('POST', '/collections', movies)).status).toBe(409);
  });

  it('GET /collections lists, GET /collections/{code} reads, 404 when unknown', async () => {
    expect((await api('GET', '/collections')).body.data.map((c: any) => c.collectionCode)).toEqual(['movies']);
    expect((await api('GET', '/collections/movies')).body.dataRecordIdentifierProperty).toBe('id');
    const missing = await api('GET', '/collections/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NotFound');
  });

  it('a bad collection body answers 400 and creates nothing', async () => {
    const res = await api('POST', '/collections', { collectionCode: 'bad code!', dataRecordIdentifierProperty: 'id' });
    expect(res.status).toBe(400);
    expect((await api('GET', '/collections/bad code!')).status).toBe(404);
  });

  it('POST /collections/{code}/schema stores the schema and GET reads it; a malformed one answers 400 naming the field', async () => {
    const res = await api('POST', '/collections/movies/schema', movieSchema);
    expect(res.status).toBe(200);
    expect(res.body.fields.title.jsonSchema.type).toBe('string');
    expect((await api('GET', '/collections/movies/schema')).body.fields.genres.jsonSchema.items).toEqual({ type: 'string' });
    const bad = await api('POST', '/collections/movies/schema', { fields: { year: { jsonSchema: { type: 'date' } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('fields.year.jsonSchema.type');
    expect((await api('GET', '/collections/movies/schema')).body.fields.year.jsonSchema.type).toBe('integer');
  });
});

describe('navigation (INTERFACE.md "Collection navigation configuration")', () => {
  const nav = {
    navigationConfiguration: [
      { title: 'Content', ordinal: 1, active: true, actions: [{ label: 'Movies', dataRepositoryCode: 'content-master', dataCollectionCode: 'movies' }] },
    ],
  };

  it('a new collection appears in the navigation only once added there', async () => {
    expect((await api('GET', '/applications/data-graph/pages/source/_configureLeftNav')).body.navigationConfiguration).toEqual([]);
    const put = await api('PUT', '/applications/data-graph/pages/source/_configureLeftNav', nav);
    expect(put.status).toBe(200);
    expect((await api('GET', '/applications/data-graph/pages/source/_configureLeftNav')).body).toEqual(nav);
  });

  it('an action naming a collection that does not exist answers 400', async () => {
    const bad = structuredClone(nav);
    bad.navigationConfiguration[0].actions[0].dataCollectionCode = 'ghost';
    const res = await api('PUT', '/applications/data-graph/pages/source/_configureLeftNav', bad);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('ghost');
  });
});

describe('Data record lifecycle', () => {
  it('a write of an absent record creates it: schema fields plus dataRecordIdentifier, @iat and @uat; DataRecordCreated', async () => {
    events.length = 0;
    const res = await api('POST', '/collections/movies/records', {
      dataRecords: [{ id: 'm1', title: 'Heat', year: 1995, genres: ['Crime', 'Drama'], studio: 'WB', notInSchema: 'dropped' }],
    });
    expect(res.status).toBe(200);
    const created = res.body.data[0];
    expect(created.old).toBeUndefined();
    expect(created.new).toMatchObject({ id: 'm1', title: 'Heat', dataRecordIdentifier: 'm1' });
    expect(created.new.notInSchema).toBeUndefined();
    expect(created.new['@iat']).toBe(created.new['@uat']);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'DataRecordCreated', source: '', data: { customerCode: 'acme', dataCollectionCode: 'movies', new: created.new } });
    expect(events[0].data.old).toBeUndefined();
    expect(events[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(new Date(events[0].time).toISOString()).toBe(events[0].time);
  });

  it('a write of a present record updates it even when nothing changed: @uat advances, @iat stays, DataRecordUpdated with old and new', async () => {
    events.length = 0;
    const before = (await api('GET', '/collections/movies/records/m1')).body;
    const res = await api('POST', '/collections/movies/records', { dataRecords: [{ id: 'm1', title: 'Heat', year: 1995, genres: ['Crime', 'Drama'], studio: 'WB' }] });
    const { new: after, old } = res.body.data[0];
    expect(old).toEqual(before);
    expect(after['@iat']).toBe(before['@iat']);
    expect(after['@uat']).toBeGreaterThan(before['@uat']);
    expect(events.map((e) => e.type)).toEqual(['DataRecordUpdated']);
    expect(events[0].data.old).toEqual(before);
    expect(events[0].data.new).toEqual(after);
  });

  it('ifExists ignore leaves a present record alone; ifExists fail answers 409 and writes nothing', async () => {
    events.length = 0;
    const ignored = await api('POST', '/collections/movies/records', { dataRecords: [{ id: 'm1', title: 'Other' }], ifExists: 'ignore' });
    expect(ignored.body.data[0]).toMatchObject({ ignored: true, new: { title: 'Heat' } });
    const failed = await api('POST', '/collections/movies/records', { dataRecords: [{ id: 'm9', title: 'New' }, { id: 'm1', title: 'Other' }], ifExists: 'fail' });
    expect(failed.status).toBe(409);
    expect((await api('GET', '/collections/movies/records/m9')).status).toBe(404);
    expect(events).toHaveLength(0);
  });

  it('an invalid record answers 400 listing each problem, and nothing of that call is written', async () => {
    events.length = 0;
    const res = await api('POST', '/collections/movies/records', {
      dataRecords: [
        { id: 'ok1', title: 'Fine' },
        { id: 'bad1', year: 'nineteen' },
        { title: 'no id' },
        { id: 'bad2', title: 'T', genres: ['a', 3] },
      ],
    });
    expect(res.status).toBe(400);
    const message = res.body.error.message;
    expect(message).toContain('dataRecords[1].title: is required');
    expect(message).toContain('dataRecords[1].year: must be an integer');
    expect(message).toContain('dataRecords[2].id: the identifier property');
    expect(message).toContain('dataRecords[3].genres[1]: must be a string');
    expect((await api('GET', '/collections/movies/records/ok1')).status).toBe(404);
    expect(events).toHaveLength(0);
  });

  it('identifiers that are not strings or numbers answer 400; numbers become strings (a collection without schema keeps every field)', async () => {
    expect((await api('POST', '/collections', { ...movies, collectionCode: 'plain' })).status).toBe(201);
    expect((await api('POST', '/collections/plain/records', { dataRecords: [{ id: { x: 1 } }] })).status).toBe(400);
    expect((await api('POST', '/collections/plain/records', { dataRecords: [{ id: true }] })).status).toBe(400);
    const numeric = await api('POST', '/collections/plain/records', { dataRecords: [{ id: 42, title: 'Answer', extra: { deep: [1] } }] });
    expect(numeric.body.data[0].new.dataRecordIdentifier).toBe('42');
    expect((await api('GET', '/collections/plain/records/42')).body).toMatchObject({ id: 42, title: 'Answer', extra: { deep: [1] } });
  });

  it('PATCH updates some fields, validates the result, and raises DataRecordUpdated', async () => {
    events.length = 0;
    const res = await api('PATCH', '/collections/movies/records/m1', { rating: 8.3 });
    expect(res.status).toBe(200);
    expect(res.body.new).toMatchObject({ title: 'Heat', rating: 8.3 });
    expect(events.map((e) => e.type)).toEqual(['DataRecordUpdated']);
    expect((await api('PATCH', '/collections/movies/records/m1', { year: 'x' })).status).toBe(400);
    expect((await api('PATCH', '/collections/movies/records/m1', { id: 'other' })).status).toBe(400);
    expect((await api('PATCH', '/collections/movies/records/ghost', { rating: 1 })).status).toBe(404);
  });

  it('DELETE answers 204 and raises DataRecordRemoved with old; 404 when absent', async () => {
    events.length = 0;
    expect((await api('DELETE', '/collections/plain/records/42')).status).toBe(204);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'DataRecordRemoved', data: { dataCollectionCode: 'plain', old: { id: 42, dataRecordIdentifier: '42' } } });
    expect(events[0].data.new).toBeUndefined();
    expect((await api('DELETE', '/collections/plain/records/42')).status).toBe(404);
    expect((await api('GET', '/collections/plain/records/42')).status).toBe(404);
  });

  it('records of an unknown collection answer 404', async () => {
    expect((await api('POST', '/collections/nope/records', { dataRecords: [{ id: 'x' }] })).status).toBe(404);
    expect((await api('POST', '/collections/nope/records/_query', {})).status).toBe(404);
  });
});

describe('records query and scroll', () => {
  beforeAll(async () => {
    const dataRecords = Array.from({ length: 120 }, (_, i) => ({
      id: `q${String(i).padStart(3, '0')}`,
      title: `Movie ${i}`,
      year: 1950 + (i % 70),
      rating: (i % 10) + 0.5,
      genres: i % 3 === 0 ? ['Drama', 'War'] : ['Comedy'],
      studio: i % 2 === 0 ? 'A24' : 'Pixar',
    }));
    expect((await api('POST', '/collections/movies/records', { dataRecords })).status).toBe(200);
  });

  const query = async (body: unknown) => {
    const res = await api('POST', '/collections/movies/records/_query', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { data: any[]; total: number };
  };

  it('COMPAT.md filters: $and of $gte and $eq', async () => {
    const res = await query({ filter: { $and: [{ $gte: { field: 'year', value: 2010 } }, { $eq: { field: 'studio', value: 'A24' } }] }, limit: 300 });
    expect(res.data.length).toBeGreaterThan(0);
    for (const r of res.data) {
      expect(r.year).toBeGreaterThanOrEqual(2010);
      expect(r.studio).toBe('A24');
    }
    expect(res.total).toBe(res.data.length);
  });

  it('$eq on an array field matches membership (through the index), and the answer equals the scan', async () => {
    const indexed = await query({ filter: { $eq: { field: 'genres', value: 'War' } }, limit: 300 });
    expect(indexed.total).toBe(40);
    const scanned = await query({ filter: { $and: [{ $contains: { field: 'genres', value: 'War' } }, { $exists: { field: 'id', value: true } }] }, limit: 300 });
    expect(scanned.data.map((r) => r.id)).toEqual(indexed.data.map((r) => r.id));
  });

  it('$ne $gt $lt $lte $in $contains $exists $or $not', async () => {
    expect((await query({ filter: { $ne: { field: 'studio', value: 'A24' } }, limit: 300 })).data.every((r) => r.studio !== 'A24')).toBe(true);
    expect((await query({ filter: { $gt: { field: 'rating', value: 9 } }, limit: 300 })).data.every((r) => r.rating > 9)).toBe(true);
    expect((await query({ filter: { $lt: { field: 'year', value: 1952 } }, limit: 300 })).data.every((r) => r.year < 1952)).toBe(true);
    expect((await query({ filter: { $lte: { field: 'year', value: 1950 } }, limit: 300 })).data.every((r) => r.year === 1950)).toBe(true);
    expect((await query({ filter: { $in: { field: 'id', value: ['q001', 'q002', 'zzz'] } } })).data.map((r) => r.id)).toEqual(['q001', 'q002']);
    expect((await query({ filter: { $contains: { field: 'title', value: 'movie 11' } }, limit: 300 })).total).toBe(11);
    expect((await query({ filter: { $exists: { field: 'rating', value: true } }, limit: 300 })).total).toBe(121);
    expect((await query({ filter: { $exists: { field: 'rating', value: false } }, limit: 300 })).total).toBe(0);
    const either = await query({ filter: { $or: [{ $eq: { field: 'id', value: 'q005' } }, { $eq: { field: 'id', value: 'q006' } }] } });
    expect(either.data.map((r) => r.id)).toEqual(['q005', 'q006']);
    const not = await query({ filter: { $not: { $eq: { field: 'studio', value: 'A24' } } }, limit: 300 });
    expect(not.data.every((r) => r.studio !== 'A24')).toBe(true);
  });

  it('sort, limit (at most 300), offset and total', async () => {
    const page = await query({ filter: { $eq: { field: 'studio', value: 'Pixar' } }, sort: [{ field: 'year', order: 'desc' }], limit: 5, offset: 2 });
    expect(page.total).toBe(60);
    expect(page.data).toHaveLength(5);
    const years = page.data.map((r) => r.year);
    expect([...years].sort((a, b) => b - a)).toEqual(years);
    expect((await api('POST', '/collections/movies/records/_query', { limit: 301 })).status).toBe(400);
    expect((await query({})).data).toHaveLength(100);
  });

  it('a malformed filter answers 400 naming its path', async () => {
    const res = await api('POST', '/collections/movies/records/_query', { filter: { $and: [{ $gt: { field: 'year' , value: {} } }] } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('filter.$and[0].$gt.value');
    expect((await api('POST', '/collections/movies/records/_query', { filter: { $regex: { field: 'a', value: 'b' } } })).status).toBe(400);
  });

  it('_scroll reads a whole collection page by page with scrollId and hasNext', async () => {
    const seen: string[] = [];
    let body: any = { limit: 25, filter: { $eq: { field: 'studio', value: 'A24' } } };
    for (let i = 0; i < 20; i++) {
      const res = await api('POST', '/collections/movies/records/_scroll', body);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((r: any) => r.id));
      if (!res.body.hasNext) break;
      body = { scrollId: res.body.scrollId, limit: 25 };
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(Array.from({ length: 60 }, (_, i) => `q${String(i * 2).padStart(3, '0')}`));
    expect((await api('POST', '/collections/movies/records/_scroll', { scrollId: 'garbage' })).status).toBe(400);
  });
});

describe('tenant isolation', () => {
  it("no call of one customer can read, change or list another's collections or records", async () => {
    expect((await api('GET', '/collections', undefined, B)).body.data).toEqual([]);
    expect((await api('POST', '/collections/movies/records/_query', {}, B)).status).toBe(404);
    expect((await api('GET', '/collections/movies', undefined, B)).status).toBe(404);
    expect((await api('GET', '/collections/movies/records/m1', undefined, B)).status).toBe(404);
    expect((await api('POST', '/collections/movies/records', { dataRecords: [{ id: 'm1' }] }, B)).status).toBe(404);
    expect((await api('DELETE', '/collections/movies', undefined, B)).status).toBe(404);
    expect((await api('GET', '/collections/movies/records/m1')).status).toBe(200);
  });

  it('the engine token is refused on data graph routes', async () => {
    const res = await api('GET', '/collections', undefined, { authorization: `Bearer ${CUSTOMER_A.engineToken}`, 'x-customer-code': 'acme' });
    expect(res.status).toBe(401);
  });
});

describe('bad input', () => {
  it('malformed JSON and wrong field types answer 400 and write nothing', async () => {
    expect((await api('POST', '/collections/movies/records', '{"dataRecords": [')).status).toBe(400);
    expect((await api('POST', '/collections/movies/records', { dataRecords: 'x' })).status).toBe(400);
    expect((await api('POST', '/collections/movies/records', { dataRecords: [{ id: 'y', title: 'T' }], ifExists: 'sometimes' })).status).toBe(400);
    expect((await api('GET', '/collections/movies/records/y')).status).toBe(404);
  });

  it('an oversize body (over 6 MB) answers 413', async () => {
    const res = await api('POST', '/collections/movies/records', { dataRecords: [{ id: 'big', title: 'x'.repeat(6.5 * 1024 * 1024) }] });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PayloadTooLarge');
  });
});

describe('DELETE /collections/{code}', () => {
  it('removes the collection and its records, raising DataRecordRemoved for each', async () => {
    await api('POST', '/collections', { ...movies, collectionCode: 'temp' });
    await api('POST', '/collections/temp/records', { dataRecords: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] });
    events.length = 0;
    expect((await api('DELETE', '/collections/temp')).status).toBe(204);
    expect(events.map((e) => e.type)).toEqual(['DataRecordRemoved', 'DataRecordRemoved', 'DataRecordRemoved']);
    expect(events.map((e) => e.data.old!.dataRecordIdentifier).sort()).toEqual(['a', 'b', 'c']);
    expect((await api('GET', '/collections/temp')).status).toBe(404);
    // A collection of the same code starts empty.
    await api('POST', '/collections', { ...movies, collectionCode: 'temp' });
    expect((await api('POST', '/collections/temp/records/_query', {})).body.total).toBe(0);
  });
});
