/**
 * Data graph benchmarks (see bench/README.md "graph"):
 *  1. records written per second through `POST /_api/v1/collections/{code}/records`, 100 records
 *     a call, 4 calls in flight: creates, then updates of the same ids; beside the same store
 *     operations (BatchGetItem + one conditional PutItem per record) done directly with the SDK;
 *  2. `_query` latency on a 100,000-record collection, for an indexed and a non-indexed `$eq`
 *     filter of 1 % selectivity, each beside the same store operations done with the SDK.
 *
 * The host runs in its own process with a data folder (dynalite on LevelDB, as `npm start`);
 * the raw baselines run in the bench process against a dynalite of their own, also on LevelDB,
 * holding an identical copy of the same data.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'undici';
import { DynamoDbStore } from '../../functions/adapters/aws/dynamodb-store';
import { startLocalDynamo, type LocalDynamo } from '../../functions/adapters/local/local-dynamo';
import { CollectionRepository } from '../../functions/core/graph/collections/repository';
import { CollectionService } from '../../functions/core/graph/collections/service';
import { schemaBody } from '../../functions/core/graph/collections/model';
import { toRecordItem, type DataRecord, type RecordItem } from '../../functions/core/graph/records/record-item';
import { RecordStore } from '../../functions/core/graph/records/record-store';
import { RecordService } from '../../functions/core/graph/records/service';
import { systemClock } from '../../functions/ports/clock';
import { startChild, type Child } from '../lib/child';
import { cpuLine, cpuMeter, type CpuShare } from '../lib/cpu';
import { BENCH_CUSTOMER, GRAPH_HEADERS } from '../lib/customer';
import { pool, runCount, send } from '../lib/load';
import { summarizeProfile } from '../lib/profile-summary';
import { startProfile, stopProfile } from '../lib/profiler';
import { rawIndexedQuery, rawRecordsWrite, rawScan } from '../lib/raw-store';
import { addCounts, perUnit, storeCallsLine, takeStoreCalls, type StoreCallCounts } from '../lib/store-calls';
import { median, pairedBootstrap, summarize, type Summary } from '../lib/stats';
import { check, type Suite } from '../lib/suite';

const QUICK = process.env.BENCH_QUICK === '1';
const P = {
  /** Records of the queried collection. */
  queryRecords: QUICK ? 20_000 : 100_000,
  /** Distinct values of the indexed and of the non-indexed field: 100 = 1 % selectivity. */
  distinctValues: 100,
  queryLimit: 100,
  /** Loading: record entries per RecordStore.writeMany call, calls in flight. */
  loadChunk: 2_000,
  loadConcurrency: 2,
  writeBatch: 100,
  writeConcurrency: 4,
  writeWarmupCalls: QUICK ? 4 : 8,
  writeRounds: QUICK ? 2 : 3,
  writeCallsPerRound: QUICK ? 6 : 15,
  indexedWarmupPairs: QUICK ? 5 : 15,
  indexedPairs: QUICK ? 30 : 150,
  scanWarmupPairs: 1,
  scanPairs: QUICK ? 3 : 6,
};
const HOST_NODE_ARGS = (process.env.BENCH_HOST_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
/** When set, the host's main thread is profiled during each measured host phase (figures are then disturbed by the profiler). */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const TABLE = 'bench';
const CUSTOMER = BENCH_CUSTOMER.customerCode;
const BIG = 'big';
const WRITES = 'writes';

const pad2 = (n: number) => String(n).padStart(2, '0');
/** The record of the queried collection: category (indexed) and bucket (not indexed) spread independently, 1 % each. */
function bigRecord(i: number, now: number): DataRecord {
  const id = `b${String(i).padStart(6, '0')}`;
  return {
    id,
    title: `Record number ${i}`,
    category: `c${pad2(i % P.distinctValues)}`,
    bucket: `k${pad2(Math.floor(i / P.distinctValues) % P.distinctValues)}`,
    n: i,
    dataRecordIdentifier: id,
    '@iat': now,
    '@uat': now,
  };
}
const BIG_SCHEMA = schemaBody.parse({
  fields: {
    id: { jsonSchema: { type: 'string', title: 'Id' }, options: { required: true } },
    title: { jsonSchema: { type: 'string', title: 'Title' } },
    category: { jsonSchema: { type: 'string', title: 'Category' }, options: { indexed: true } },
    bucket: { jsonSchema: { type: 'string', title: 'Bucket' } },
    n: { jsonSchema: { type: 'integer', title: 'N' } },
  },
}).fields;
const WRITES_SCHEMA = {
  fields: {
    id: { jsonSchema: { type: 'string', title: 'Id' }, options: { required: true } },
    title: { jsonSchema: { type: 'string', title: 'Title' } },
    year: { jsonSchema: { type: 'integer', title: 'Year' } },
    rating: { jsonSchema: { type: 'number', title: 'Rating' } },
  },
};
const writeFields = (id: string, version: number) => ({ id, title: `Title of ${id} v${version}`, year: 1950 + (id.length % 70), rating: version + 0.5 });

const ms = (n: number) => `${n.toFixed(2)} ms`;
const line = (label: string, s: Summary) =>
  `${label.padEnd(38)} p50 ${ms(s.p50).padStart(10)}  p99 ${ms(s.p99).padStart(10)}  IQR ${ms(s.iqr).padStart(9)}  min ${ms(s.min).padStart(10)}  max ${ms(s.max).padStart(10)}  (n=${s.n})`;

/**
 * Bulk load of the queried collection into a fresh LevelDB folder, with the application's own
 * layout code over the plain DynamoDB adapter (no change stream, so no events): the collection
 * and its schema through CollectionService, then records and index entries through
 * RecordStore.writeMany (BatchWriteItem, 25 items a call, 4 calls in flight per writeMany).
 */
async function loadBigCollection(folder: string) {
  const started = performance.now();
  const dynamo = await startLocalDynamo({ tableName: TABLE, path: folder });
  try {
    const store = new DynamoDbStore({ tableName: TABLE, client: dynamo.client });
    const repository = new CollectionRepository(store);
    const recordStore = new RecordStore(store);
    const collections = new CollectionService(repository, new RecordService(repository, recordStore, systemClock), systemClock);
    await collections.create(CUSTOMER, { collectionCode: BIG, name: 'Big', description: 'bench: 100,000 records', dataRecordIdentifierProperty: 'id' });
    await collections.setSchema(CUSTOMER, BIG, BIG_SCHEMA);
    const now = Date.now();
    const chunks: number[] = [];
    for (let i = 0; i < P.queryRecords; i += P.loadChunk) chunks.push(i);
    const writeStarted = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        const from = chunks[next++];
        const entries = Array.from({ length: Math.min(P.loadChunk, P.queryRecords - from) }, (_, k) => ({ record: bigRecord(from + k, now), previous: undefined }));
        await recordStore.writeMany(CUSTOMER, BIG, entries, ['category']);
      }
    };
    await Promise.all(Array.from({ length: P.loadConcurrency }, worker));
    const writeMs = performance.now() - writeStarted;
    return { writeMs, totalMs: performance.now() - started, items: P.queryRecords * 2 };
  } finally {
    await dynamo.stop();
  }
}

const suite: Suite = {
  name: 'graph',
  description: 'Data graph: records write rate (POST .../records, 100 a call) and _query latency on 100,000 records, each beside the raw store operations',
  async run(log) {
    const folder = await mkdtemp(join(tmpdir(), 'bench-graph-'));
    const hostDir = join(folder, 'host');
    const rawDir = join(folder, 'raw');
    const pools: Pool[] = [];
    let host: Child<{ url: string }> | undefined;
    let raw: LocalDynamo | undefined;
    const profiles: Record<string, unknown> = {};
    try {
      // ---- loading: once, into the host's data folder; the raw dynalite gets a copy ------------
      const load = await loadBigCollection(join(hostDir, 'dynamodb'));
      log(`loaded ${P.queryRecords} records + ${P.queryRecords} index entries in ${(load.writeMs / 1000).toFixed(1)} s (${((load.items / load.writeMs) * 1000).toFixed(0)} items/s)`);
      const copyStarted = performance.now();
      await cp(join(hostDir, 'dynamodb'), join(rawDir, 'dynamodb'), { recursive: true });
      const copyMs = performance.now() - copyStarted;

      const hostStarted = performance.now();
      host = await startChild<{ url: string }>('host', 'bench/lib/host-process.ts', { args: ['--data-dir', hostDir, '--count-store-calls'], nodeArgs: HOST_NODE_ARGS });
      const hostStartMs = performance.now() - hostStarted;
      raw = await startLocalDynamo({ tableName: TABLE, path: join(rawDir, 'dynamodb') });
      log(`host ${host.info.url} (pid ${host.pid}, data folder ${hostDir}, started in ${(hostStartMs / 1000).toFixed(1)} s); raw dynalite ${raw.endpoint} in the bench process (copy of the same data, ${copyMs.toFixed(0)} ms to copy)`);
      const rawClient = raw.client;
      const meter = cpuMeter({ host });
      const hostPool = pool(host.info.url, 8);
      pools.push(hostPool);
      const api = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
        const text = await send(hostPool, `/_api/v1${path}`, { method, headers: GRAPH_HEADERS, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
        return text ? JSON.parse(text) : undefined;
      };
      const profiled = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
        if (!PROFILE_DIR) return work();
        await startProfile(host!, name);
        try {
          return await work();
        } finally {
          const path = await stopProfile(host!, name, PROFILE_DIR);
          profiles[name] = { path, ...summarizeProfile(path, 25) };
          log(`profile ${name}: ${path}`);
        }
      };

      // ---- (1) records write rate ----------------------------------------------------------------
      await api('POST', '/collections', { collectionCode: WRITES, name: 'Writes', description: 'bench', dataRecordIdentifierProperty: 'id' });
      await api('POST', `/collections/${WRITES}/schema`, WRITES_SCHEMA);
      const B = P.writeBatch;
      const idsOf = (round: string, call: number) => Array.from({ length: B }, (_, k) => `w${round}-${String(call * B + k).padStart(5, '0')}`);
      const hostPass = async (round: string, calls: number, version: number) => {
        const bodies = Array.from({ length: calls }, (_, c) => JSON.stringify({ dataRecords: idsOf(round, c).map((id) => writeFields(id, version)) }));
        let wrongAnswers = 0;
        const run = await runCount({
          count: calls,
          concurrency: P.writeConcurrency,
          request: async (c) => {
            const answer = JSON.parse(await send(hostPool, `/_api/v1/collections/${WRITES}/records`, { method: 'POST', headers: GRAPH_HEADERS, body: bodies[c] })) as { data: { old?: unknown; new: { title: string } }[] };
            const expectOld = version > 1;
            if (answer.data.length !== B || answer.data.some((r) => (r.old !== undefined) !== expectOld || !r.new.title.endsWith(`v${version}`))) wrongAnswers++;
          },
        });
        check(wrongAnswers === 0, `${wrongAnswers} records calls of round ${round} (version ${version}) did not answer ${B} ${version > 1 ? 'updates' : 'creates'}`);
        return run;
      };
      const rawPass = async (round: string, calls: number, version: number) => {
        let wrongFinds = 0;
        const run = await runCount({
          count: calls,
          concurrency: P.writeConcurrency,
          request: async (c) => {
            const now = Date.now();
            const items: RecordItem[] = idsOf(round, c).map((id) => toRecordItem(CUSTOMER, WRITES, { ...writeFields(id, version), dataRecordIdentifier: id, '@iat': now, '@uat': now }));
            const existed = await rawRecordsWrite(rawClient, TABLE, items, now);
            if (existed !== (version > 1 ? B : 0)) wrongFinds++;
          },
        });
        check(wrongFinds === 0, `raw writes of round ${round}: ${wrongFinds} batches did not find the expected previous records`);
        return run;
      };
      // Warm-up: both sides, creates and updates, ids of their own.
      await hostPass('warm', P.writeWarmupCalls, 1);
      await rawPass('warm', P.writeWarmupCalls, 1);
      await hostPass('warm', P.writeWarmupCalls, 2);
      await rawPass('warm', P.writeWarmupCalls, 2);
      log(`writes: warm-up done (${P.writeWarmupCalls} calls of ${B} per side and kind)`);

      type Pass = { records: number; elapsedMs: number; perSecond: number; callLatencyMs: number[]; cpu: CpuShare };
      const passes = { hostCreate: [] as Pass[], rawCreate: [] as Pass[], hostUpdate: [] as Pass[], rawUpdate: [] as Pass[] };
      const storeCalls = { create: {} as StoreCallCounts, update: {} as StoreCallCounts };
      /** A host pass, with the host's store requests counted. */
      const countedHostPass = async (kind: 'create' | 'update', work: () => Promise<{ elapsedMs: number; latenciesMs: number[] }>) => {
        await takeStoreCalls(host!, `reset-${kind}`);
        const result = await work();
        storeCalls[kind] = addCounts(storeCalls[kind], await takeStoreCalls(host!, kind));
        return result;
      };
      const measurePass = async (into: Pass[], work: () => Promise<{ elapsedMs: number; latenciesMs: number[] }>) => {
        const { result, cpu } = await meter.during(work);
        const records = P.writeCallsPerRound * B;
        into.push({ records, elapsedMs: result.elapsedMs, perSecond: (records / result.elapsedMs) * 1000, callLatencyMs: result.latenciesMs, cpu });
      };
      for (let r = 0; r < P.writeRounds; r++) {
        const round = `r${r}`;
        const hostFirst = r % 2 === 0;
        const calls = P.writeCallsPerRound;
        const hostCreate = () => measurePass(passes.hostCreate, () => countedHostPass('create', () => (r === 0 ? profiled('graph-records-create', () => hostPass(round, calls, 1)) : hostPass(round, calls, 1))));
        const rawCreate = () => measurePass(passes.rawCreate, () => rawPass(round, calls, 1));
        const hostUpdate = () => measurePass(passes.hostUpdate, () => countedHostPass('update', () => (r === 0 ? profiled('graph-records-update', () => hostPass(round, calls, 2)) : hostPass(round, calls, 2))));
        const rawUpdate = () => measurePass(passes.rawUpdate, () => rawPass(round, calls, 2));
        if (hostFirst) {
          await hostCreate();
          await rawCreate();
          await hostUpdate();
          await rawUpdate();
        } else {
          await rawCreate();
          await hostCreate();
          await rawUpdate();
          await hostUpdate();
        }
        const last = (p: Pass[]) => p[p.length - 1].perSecond.toFixed(0);
        log(`writes round ${r}: creates host ${last(passes.hostCreate)}/s raw ${last(passes.rawCreate)}/s; updates host ${last(passes.hostUpdate)}/s raw ${last(passes.rawUpdate)}/s`);
      }
      const pooled = (p: Pass[]) => {
        const records = p.reduce((s, x) => s + x.records, 0);
        const elapsedMs = p.reduce((s, x) => s + x.elapsedMs, 0);
        const perRound = p.map((x) => x.perSecond);
        const mean = (f: (c: CpuShare) => number) => p.reduce((s, x) => s + f(x.cpu) * x.elapsedMs, 0) / elapsedMs;
        return {
          records,
          elapsedS: elapsedMs / 1000,
          recordsPerSecond: (records / elapsedMs) * 1000,
          recordsPerSecondByRound: perRound,
          spread: { min: Math.min(...perRound), median: median(perRound), max: Math.max(...perRound) },
          callLatencyMs: summarize(p.flatMap((x) => x.callLatencyMs)),
          cpuCores: {
            hostTotal: mean((c) => c.children.host.total),
            hostMainThread: mean((c) => c.children.host.main),
            hostOtherThreads: mean((c) => c.children.host.others),
            benchProcess: mean((c) => c.bench),
            otherProcesses: mean((c) => c.otherProcesses),
          },
        };
      };
      const writeKind = (hostP: Pass[], rawP: Pass[], counts: StoreCallCounts) => {
        const h = pooled(hostP);
        const w = pooled(rawP);
        const ratios = hostP.map((x, i) => x.perSecond / rawP[i].perSecond);
        return {
          host: h,
          raw: w,
          ratioHostOverRaw: h.recordsPerSecond / w.recordsPerSecond,
          ratioByRound: ratios,
          hostCpuMsPerRecord: (h.cpuCores.hostTotal * h.elapsedS * 1000) / h.records,
          rawBenchCpuMsPerRecord: (w.cpuCores.benchProcess * w.elapsedS * 1000) / w.records,
          /** The host's DynamoDB requests and items per record written (the raw side: 1 BatchGetItem key + 1 PutItem, 0.01 BatchGetItem request). */
          hostStoreCallsPerRecord: perUnit(counts, h.records),
        };
      };
      const writes = {
        batchSize: B,
        callsInFlight: P.writeConcurrency,
        rounds: P.writeRounds,
        callsPerRoundPerSide: P.writeCallsPerRound,
        warmupCalls: P.writeWarmupCalls,
        creates: writeKind(passes.hostCreate, passes.rawCreate, storeCalls.create),
        updates: writeKind(passes.hostUpdate, passes.rawUpdate, storeCalls.update),
      };

      // ---- (2) _query latency on the loaded collection ----------------------------------------------
      const queryBody = (field: string, value: string) => JSON.stringify({ filter: { $eq: { field, value } }, limit: P.queryLimit });
      const expected = P.queryRecords / P.distinctValues;
      const hostQuery = async (field: string, value: string) => {
        const answer = JSON.parse(await send(hostPool, `/_api/v1/collections/${BIG}/records/_query`, { method: 'POST', headers: GRAPH_HEADERS, body: queryBody(field, value) })) as { data: Record<string, unknown>[]; total: number };
        check(answer.total === expected && answer.data.length === Math.min(P.queryLimit, expected) && answer.data.every((r) => r[field] === value), `host _query ${field}=${value}: total ${answer.total}, ${answer.data.length} records (expected ${expected})`);
      };
      const rawIndexed = async (value: string) => {
        const found = await rawIndexedQuery(rawClient, TABLE, CUSTOMER, BIG, 'category', value);
        check(found.length === expected, `raw indexed read of category=${value} found ${found.length} records (expected ${expected}): index layout differs?`);
      };
      const rawNotIndexed = async (value: string) => {
        const { read, matched } = await rawScan(rawClient, TABLE, CUSTOMER, BIG, (r) => r.bucket === value);
        check(read === P.queryRecords && matched === expected, `raw scan read ${read} items, matched ${matched} (expected ${P.queryRecords}, ${expected})`);
      };
      const time = async (f: () => Promise<void>) => {
        const t0 = performance.now();
        await f();
        return performance.now() - t0;
      };
      const pairs = async (label: string, warmup: number, n: number, valueOf: (i: number) => string, hostSide: (v: string) => Promise<void>, rawSide: (v: string) => Promise<void>, profileName: string) => {
        for (let i = 0; i < warmup; i++) {
          await hostSide(valueOf(i + 1000));
          await rawSide(valueOf(i + 1000));
        }
        const hostMs: number[] = [];
        const rawMs: number[] = [];
        await takeStoreCalls(host!, `reset-${profileName}`);
        const { cpu, elapsedMs } = await meter.during(() =>
          profiled(profileName, async () => {
            for (let i = 0; i < n; i++) {
              const v = valueOf(i);
              if (i % 2 === 0) {
                hostMs.push(await time(() => hostSide(v)));
                rawMs.push(await time(() => rawSide(v)));
              } else {
                rawMs.push(await time(() => rawSide(v)));
                hostMs.push(await time(() => hostSide(v)));
              }
            }
          }),
        );
        const counted = perUnit(await takeStoreCalls(host!, profileName), n);
        const h = summarize(hostMs);
        const w = summarize(rawMs);
        const ratioCi = pairedBootstrap(hostMs, rawMs, (a, b) => median(a) / median(b));
        const diffCi = pairedBootstrap(hostMs, rawMs, (a, b) => median(a) - median(b));
        log(`${label}: host p50 ${ms(h.p50)} p99 ${ms(h.p99)}; raw p50 ${ms(w.p50)} p99 ${ms(w.p99)} (${n} pairs, ${(elapsedMs / 1000).toFixed(1)} s)`);
        return {
          pairs: n,
          warmupPairs: warmup,
          hostMs: h,
          rawMs: w,
          ratioP50: h.p50 / w.p50,
          ratioP50Ci95: [ratioCi.low, ratioCi.high],
          ratioP99: h.p99 / w.p99,
          overheadP50Ms: h.p50 - w.p50,
          overheadP50Ci95Ms: [diffCi.low, diffCi.high],
          pairedDifferenceMs: summarize(hostMs.map((x, i) => x - rawMs[i])),
          cpuCores: cpu,
          /** The host's DynamoDB requests and items per query. */
          hostStoreCallsPerQuery: counted,
          runSeconds: elapsedMs / 1000,
        };
      };
      // Verification first (fails loudly): both sides find exactly the 1 % of each kind.
      await hostQuery('category', 'c00');
      await rawIndexed('c00');
      const categoryOf = (i: number) => `c${pad2((i * 37 + 11) % P.distinctValues)}`;
      const bucketOf = (i: number) => `k${pad2((i * 53 + 7) % P.distinctValues)}`;
      const indexed = await pairs('indexed $eq', P.indexedWarmupPairs, P.indexedPairs, categoryOf, (v) => hostQuery('category', v), rawIndexed, 'graph-query-indexed');
      const notIndexed = await pairs('non-indexed $eq', P.scanWarmupPairs, P.scanPairs, bucketOf, (v) => hostQuery('bucket', v), rawNotIndexed, 'graph-query-not-indexed');

      const c = writes.creates;
      const u = writes.updates;
      const report = [
        `store: dynalite on LevelDB in a temp folder (host: its own, in the host process; raw: its own, in the bench process, a copy of the same data)`,
        `loading ${P.queryRecords} records + ${P.queryRecords} index entries (RecordStore.writeMany over the plain adapter, ${P.loadConcurrency} x 4 BatchWriteItem in flight): ${(load.writeMs / 1000).toFixed(1)} s = ${((load.items / load.writeMs) * 1000).toFixed(0)} items/s (${((P.queryRecords / load.writeMs) * 1000).toFixed(0)} records/s); copy of the data folder ${copyMs.toFixed(0)} ms`,
        '',
        `(1) records written per second, ${B} a call, ${P.writeConcurrency} calls in flight, ${P.writeRounds} rounds x ${P.writeCallsPerRound} calls per side (alternating order)`,
        `creates: host ${c.host.recordsPerSecond.toFixed(0)}/s (rounds ${c.host.recordsPerSecondByRound.map((x) => x.toFixed(0)).join(', ')}), raw ${c.raw.recordsPerSecond.toFixed(0)}/s (rounds ${c.raw.recordsPerSecondByRound.map((x) => x.toFixed(0)).join(', ')}); host/raw ${c.ratioHostOverRaw.toFixed(3)}`,
        line('  create call latency (host)', c.host.callLatencyMs),
        line('  create batch latency (raw)', c.raw.callLatencyMs),
        `updates: host ${u.host.recordsPerSecond.toFixed(0)}/s (rounds ${u.host.recordsPerSecondByRound.map((x) => x.toFixed(0)).join(', ')}), raw ${u.raw.recordsPerSecond.toFixed(0)}/s (rounds ${u.raw.recordsPerSecondByRound.map((x) => x.toFixed(0)).join(', ')}); host/raw ${u.ratioHostOverRaw.toFixed(3)}`,
        line('  update call latency (host)', u.host.callLatencyMs),
        line('  update batch latency (raw)', u.raw.callLatencyMs),
        `  host CPU per record: create ${ms(c.hostCpuMsPerRecord)}, update ${ms(u.hostCpuMsPerRecord)}; raw (bench process, client + dynalite): create ${ms(c.rawBenchCpuMsPerRecord)}, update ${ms(u.rawBenchCpuMsPerRecord)}`,
        `  creates: ${storeCallsLine(c.hostStoreCallsPerRecord, 'record')}`,
        `  updates: ${storeCallsLine(u.hostStoreCallsPerRecord, 'record')}`,
        `  cores during host creates: host ${c.host.cpuCores.hostTotal.toFixed(2)} (main thread ${c.host.cpuCores.hostMainThread.toFixed(2)}), other processes ${c.host.cpuCores.otherProcesses.toFixed(2)}; during raw creates: bench ${c.raw.cpuCores.benchProcess.toFixed(2)}, other processes ${c.raw.cpuCores.otherProcesses.toFixed(2)}`,
        '',
        `(2) _query on ${P.queryRecords} records, $eq with ${((1 / P.distinctValues) * 100).toFixed(0)} % selectivity (${expected} matches), limit ${P.queryLimit}; pairs host/raw back to back, alternating order`,
        line('indexed: host _query', indexed.hostMs),
        line('indexed: raw 16 Queries + BatchGetItem', indexed.rawMs),
        `  ratio p50 ${indexed.ratioP50.toFixed(3)} (95% CI ${indexed.ratioP50Ci95.map((x) => x.toFixed(3)).join('..')}), p99 ${indexed.ratioP99.toFixed(3)}; overhead p50 ${ms(indexed.overheadP50Ms)}`,
        `  ${cpuLine(indexed.cpuCores)}`,
        `  host ${storeCallsLine(indexed.hostStoreCallsPerQuery, 'query')}`,
        line('non-indexed: host _query', notIndexed.hostMs),
        line('non-indexed: raw 16 shards, paged Query', notIndexed.rawMs),
        `  ratio p50 ${notIndexed.ratioP50.toFixed(3)} (95% CI ${notIndexed.ratioP50Ci95.map((x) => x.toFixed(3)).join('..')}), p99 ${notIndexed.ratioP99.toFixed(3)}; overhead p50 ${ms(notIndexed.overheadP50Ms)}`,
        `  ${cpuLine(notIndexed.cpuCores)}`,
        `  host ${storeCallsLine(notIndexed.hostStoreCallsPerQuery, 'query')}`,
      ];
      if (PROFILE_DIR) report.push('', `profiles of the host's main thread (figures above are disturbed by the profiler): ${Object.keys(profiles).join(', ')} in ${PROFILE_DIR}`);
      return {
        figures: {
          parameters: { ...P, hostNodeArgs: HOST_NODE_ARGS, quick: QUICK, profiled: Boolean(PROFILE_DIR) },
          setup: {
            store: 'dynalite on LevelDB (temp folders); host: its own dynalite in the host process (startLocalHost with a data folder, as npm start); raw: its own dynalite in the bench process (startLocalDynamo), holding a copy of the same data folder',
            loading: {
              method: 'RecordStore.writeMany over the plain DynamoDB adapter (BatchWriteItem, no change stream, no events) into the host data folder before the host starts; then the folder is copied for the raw dynalite',
              records: P.queryRecords,
              items: load.items,
              writeSeconds: load.writeMs / 1000,
              itemsPerSecond: (load.items / load.writeMs) * 1000,
              recordsPerSecond: (P.queryRecords / load.writeMs) * 1000,
              copySeconds: copyMs / 1000,
              hostStartSeconds: hostStartMs / 1000,
            },
          },
          writes,
          query: { records: P.queryRecords, matchesPerValue: expected, limit: P.queryLimit, indexed, notIndexed },
          ...(PROFILE_DIR ? { profiles } : {}),
        },
        report,
      };
    } finally {
      await Promise.all(pools.map((p) => p.close().catch(() => undefined)));
      await host?.stop();
      await raw?.stop().catch(() => undefined);
      await rm(folder, { recursive: true, force: true }).catch(() => undefined);
    }
  },
};

export default suite;
