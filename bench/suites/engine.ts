/**
 * Engine benchmarks (see bench/README.md):
 *  1. orchestration overhead: a 12-component DAG of depth 4 over a stub with 20 ms per call,
 *     through the full HTTP path, against hand-written optimal code making the same 12 calls;
 *  2. throughput: 3 independent components over a zero-latency stub at concurrency 32,
 *     against the raw throughput of the stub itself under the same load generator.
 */
import os from 'node:os';
import { Agent, request, type Pool } from 'undici';
import { component, connection, engineConfig } from '../../test/support/engine-config';
import type { Component } from '../../functions/core/engine/config/model';
import { startChild, type Child } from '../lib/child';
import { machineCpu } from '../lib/machine';
import { ENGINE_HEADERS } from '../lib/customer';
import { closedLoop, pool, send, type LoadResult } from '../lib/load';
import { median, pairedBootstrap, summarize, type Summary } from '../lib/stats';
import { check, type Suite } from '../lib/suite';
import { dagAnswer, type RecordedCall, type StubStats } from '../lib/upstream';

/** Epoch milliseconds with sub-millisecond precision, comparable with the stub process's. */
const epochNow = () => performance.timeOrigin + performance.now();
const codeOf = (url: string) => url.slice(url.indexOf('/dag/') + 5, url.indexOf('?'));

/**
 * Where the time of one run goes, on the stub's and the client's clocks: from the client's
 * start to the first upstream call arriving (front in), the upstream span (first call arrived
 * to last answer sent), from the last answer sent to the client holding the result (front
 * out), and for each dependent call the delay from its last dependency's answer leaving the
 * stub to its own request arriving (hop reaction: transit + the caller's own work).
 */
function timeline(calls: RecordedCall[], startedAt: number, endedAt: number) {
  const byCode = new Map(calls.map((c) => [codeOf(c.url), c]));
  let firstAt = Infinity;
  let lastSent = -Infinity;
  for (const c of calls) {
    firstAt = Math.min(firstAt, c.at);
    lastSent = Math.max(lastSent, c.sentAt);
  }
  const reactions: number[] = [];
  for (const code of DAG_CODES) {
    const deps = DAG_DEPS[code];
    if (deps.length === 0) continue;
    const ready = Math.max(...deps.map((d) => byCode.get(d)!.sentAt));
    reactions.push(byCode.get(code)!.at - ready);
  }
  return { frontIn: firstAt - startedAt, upstreamSpan: lastSent - firstAt, frontOut: endedAt - lastSent, reactions };
}

const QUICK = process.env.BENCH_QUICK === '1';
const P = {
  dagLatencyMs: 20,
  overheadWarmupIterations: QUICK ? 10 : 40,
  overheadIterations: QUICK ? 40 : 250,
  concurrency: 32,
  throughputWarmupMs: QUICK ? 1_000 : 3_000,
  throughputMs: QUICK ? 3_000 : 10_000,
  stubRawWarmupMs: QUICK ? 500 : 1_000,
  /** Measured twice (before and after the engine run), this long each time. */
  stubRawMs: QUICK ? 1_500 : 5_000,
};
/** Extra node flags for the host child, e.g. "--cpu-prof --cpu-prof-dir=bench/results/profiles". */
const HOST_NODE_ARGS = (process.env.BENCH_HOST_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

const CONTEXT = { user: 'bench@example.com', locale: 'en' };
const USER_QS = `user=${encodeURIComponent(CONTEXT.user)}`;

// ---------------------------------------------------------------------------------------------
// The DAG: 4 levels of 3. Level 2 reads level 1 through enriched context fields, level 3 reads
// level 2 through componentResponse, level 4 mixes both, with links that skip levels.
//   r0 r1 r2                    (roots; enrich tok_r0..tok_r2)
//   a0<-r0,r1  a1<-r1  a2<-r2,r0          (contextField)
//   b0<-a0,a1  b1<-a1,a2  b2<-a2,r1        (componentResponse; b1 enriches tok_b1)
//   c0<-b0,b1  c1<-b1,a0  c2<-b2,r2        (both)
// Every call also carries the connection's base query parameter user=<contextField user>.
// ---------------------------------------------------------------------------------------------
const valid = 'response.length > 0';
const dag = (code: string, queryParams: { parameter: string; value: unknown }[], enrich?: string): Component =>
  component(code, {
    validityExpression: valid,
    contextFieldEnrichment: enrich ? [{ contextField: enrich, expression: 'response[0].token' }] : undefined,
    config: { connectionCode: 'dagUpstream', path: `/dag/${code}`, queryParams },
  });
const cf = (field: string) => ({ contextField: field });
const DAG_COMPONENTS: Component[] = [
  dag('r0', [{ parameter: 'n', value: 'r0' }], 'tok_r0'),
  dag('r1', [{ parameter: 'n', value: 'r1' }], 'tok_r1'),
  dag('r2', [{ parameter: 'n', value: 'r2' }], 'tok_r2'),
  dag('a0', [{ parameter: 'x', value: cf('tok_r0') }, { parameter: 'y', value: cf('tok_r1') }]),
  dag('a1', [{ parameter: 'x', value: "`contextField('tok_r1') + '.' + contextField('locale')`" }]),
  dag('a2', [{ parameter: 'x', value: cf('tok_r2') }, { parameter: 'y', value: "`contextField('tok_r0')`" }]),
  dag('b0', [{ parameter: 'x', value: "`componentResponse('a0')[0].token`" }, { parameter: 'y', value: "`componentResponse('a1')[0].token`" }]),
  dag('b1', [{ parameter: 'x', value: "`componentResponse('a1')[0].token + '.' + componentResponse('a2')[0].code`" }], 'tok_b1'),
  dag('b2', [{ parameter: 'x', value: "`componentResponse('a2')[0].token`" }, { parameter: 'y', value: cf('tok_r1') }]),
  dag('c0', [{ parameter: 'x', value: "`componentResponse('b0')[0].token`" }, { parameter: 'y', value: cf('tok_b1') }]),
  dag('c1', [{ parameter: 'x', value: cf('tok_b1') }, { parameter: 'y', value: "`componentResponse('a0')[0].token`" }]),
  dag('c2', [{ parameter: 'x', value: "`componentResponse('b2')[0].token + '.' + contextField('tok_r2')`" }]),
];
const DAG_CODES = DAG_COMPONENTS.map((c) => c.componentCode);
/** What each node waits for (the same edges the baseline chains on). */
const DAG_DEPS: Record<string, string[]> = {
  r0: [], r1: [], r2: [],
  a0: ['r0', 'r1'], a1: ['r1'], a2: ['r2', 'r0'],
  b0: ['a0', 'a1'], b1: ['a1', 'a2'], b2: ['a2', 'r1'],
  c0: ['b0', 'b1'], c1: ['b1', 'a0'], c2: ['b2', 'r2'],
};

const TP_CODES = ['t0', 't1', 't2'];
const TP_COMPONENTS: Component[] = TP_CODES.map((code) =>
  component(code, { validityExpression: valid, config: { connectionCode: 'tpUpstream', path: `/tp/${code}`, queryParams: [{ parameter: 'user', value: cf('user') }] } }),
);

type Records = { code: string; token: string }[];

/**
 * The baseline: the same 12 calls written by hand as well as one can: one undici keep-alive
 * agent, every call started the moment the answers it needs exist (a promise per node, no
 * levels), the same URLs and accept header as the engine's calls, each answer parsed.
 */
function makeBaseline(stubUrl: string) {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 128, pipelining: 1 });
  const get = async (pathAndQuery: string): Promise<Records> => {
    const res = await request(stubUrl + pathAndQuery, { method: 'GET', headers: { accept: 'application/json' }, dispatcher: agent });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`baseline: HTTP ${res.statusCode} from ${pathAndQuery}`);
    return JSON.parse(text) as Records;
  };
  const e = encodeURIComponent;
  const run = async () => {
    const u = USER_QS;
    const r0 = get(`/dag/r0?${u}&n=r0`);
    const r1 = get(`/dag/r1?${u}&n=r1`);
    const r2 = get(`/dag/r2?${u}&n=r2`);
    const a0 = Promise.all([r0, r1]).then(([x, y]) => get(`/dag/a0?${u}&x=${e(x[0].token)}&y=${e(y[0].token)}`));
    const a1 = r1.then((x) => get(`/dag/a1?${u}&x=${e(x[0].token + '.' + CONTEXT.locale)}`));
    const a2 = Promise.all([r2, r0]).then(([x, y]) => get(`/dag/a2?${u}&x=${e(x[0].token)}&y=${e(y[0].token)}`));
    const b0 = Promise.all([a0, a1]).then(([x, y]) => get(`/dag/b0?${u}&x=${e(x[0].token)}&y=${e(y[0].token)}`));
    const b1 = Promise.all([a1, a2]).then(([x, y]) => get(`/dag/b1?${u}&x=${e(x[0].token + '.' + y[0].code)}`));
    const b2 = Promise.all([a2, r1]).then(([x, y]) => get(`/dag/b2?${u}&x=${e(x[0].token)}&y=${e(y[0].token)}`));
    const c0 = Promise.all([b0, b1]).then(([x, y]) => get(`/dag/c0?${u}&x=${e(x[0].token)}&y=${e(y[0].token)}`));
    const c1 = Promise.all([b1, a0]).then(([x, y]) => get(`/dag/c1?${u}&x=${e(x[0].token)}&y=${e(y[0].token)}`));
    const c2 = Promise.all([b2, r2]).then(([x, y]) => get(`/dag/c2?${u}&x=${e(x[0].token + '.' + y[0].token)}`));
    const all = await Promise.all([r0, r1, r2, a0, a1, a2, b0, b1, b2, c0, c1, c2]);
    return Object.fromEntries(DAG_CODES.map((code, i) => [code, all[i]]));
  };
  return { run, close: () => agent.close() };
}

interface QueryAnswer {
  duration: number;
  components: Record<string, { status: string; response?: unknown; error?: string }>;
}

function allValid(answer: QueryAnswer, codes: string[]): string | undefined {
  for (const code of codes) {
    const result = answer.components?.[code];
    if (result?.status !== 'VALID') return `${code}: ${JSON.stringify(result)}`;
  }
  return undefined;
}

const ms = (n: number) => `${n.toFixed(2)} ms`;
const line = (label: string, s: Summary) =>
  `${label.padEnd(34)} p50 ${ms(s.p50).padStart(10)}  p99 ${ms(s.p99).padStart(10)}  IQR ${ms(s.iqr).padStart(9)}  min ${ms(s.min).padStart(10)}  max ${ms(s.max).padStart(10)}  (n=${s.n})`;
const loadSummary = (r: LoadResult) => {
  const windows = summarize(r.windows);
  return {
    completed: r.completed,
    errors: r.errors,
    elapsedS: r.elapsedMs / 1000,
    perSecond: r.perSecond,
    perSecondWindows: { min: windows.min, p50: windows.p50, max: windows.max, relativeIqr: windows.relativeIqr, values: r.windows },
    latencyMs: summarize(r.latenciesMs),
  };
};

const suite: Suite = {
  name: 'engine',
  description: 'Orchestration overhead (12-component DAG, depth 4, 20 ms upstream) and throughput (3 components, concurrency 32)',
  async run(log) {
    const children: Child<{ url: string }>[] = [];
    const pools: Pool[] = [];
    let baseline: ReturnType<typeof makeBaseline> | undefined;
    try {
      // ---- processes ------------------------------------------------------------------------
      const [stub, host] = await Promise.all([
        startChild<{ url: string }>('stub', 'bench/lib/stub-process.ts', { args: ['--dag-latency-ms', String(P.dagLatencyMs)] }),
        startChild<{ url: string }>('host', 'bench/lib/host-process.ts', { nodeArgs: HOST_NODE_ARGS }),
      ]);
      children.push(stub, host);
      log(`stub ${stub.info.url} (pid ${stub.pid}), host ${host.info.url} (pid ${host.pid})${HOST_NODE_ARGS.length ? ` with ${HOST_NODE_ARGS.join(' ')}` : ''}`);

      /** CPU used so far by each process of the bench, and by the whole machine. */
      const cpu = () => ({ host: host.cpuMs(), stub: stub.cpuMs(), load: (process.cpuUsage().user + process.cpuUsage().system) / 1000, machine: machineCpu() });
      /** Between two snapshots: cores used by each (1 = one core fully busy), and by other processes of the machine. */
      const cpuShare = (a: ReturnType<typeof cpu>, b: ReturnType<typeof cpu>, elapsedMs: number) => {
        const own = { host: (b.host - a.host) / elapsedMs, stub: (b.stub - a.stub) / elapsedMs, loadGenerator: (b.load - a.load) / elapsedMs };
        const machineBusyCores = ((b.machine.busy - a.machine.busy) / (b.machine.total - a.machine.total)) * os.cpus().length;
        return { ...own, machineBusyCores, otherProcesses: Math.max(0, machineBusyCores - own.host - own.stub - own.loadGenerator) };
      };

      const hostPool = pool(host.info.url, 4);
      const stubControl = pool(stub.info.url, 1);
      pools.push(hostPool, stubControl);
      const stubStats = async (query: string): Promise<StubStats> => JSON.parse(await send(stubControl, `/__bench/stats?${query}`));

      await send(hostPool, '/engine-config', {
        method: 'PUT',
        headers: ENGINE_HEADERS,
        body: JSON.stringify({
          engineConfig: engineConfig({
            connections: [
              connection('dagUpstream', stub.info.url, { baseQueryParams: [{ parameter: 'user', value: cf('user') }] }),
              connection('tpUpstream', stub.info.url),
            ],
            components: [...DAG_COMPONENTS, ...TP_COMPONENTS],
          }),
        }),
      });

      const dagBody = JSON.stringify({ componentCodes: DAG_CODES, context: CONTEXT });
      const engineOnce = async (): Promise<QueryAnswer> =>
        JSON.parse(await send(hostPool, '/experience/components/_query', { method: 'POST', headers: ENGINE_HEADERS, body: dagBody }));
      baseline = makeBaseline(stub.info.url);

      // ---- verification (fails loudly) ---------------------------------------------------------
      await stubStats('reset=1&record=1');
      const firstAnswer = await engineOnce();
      const invalid = allValid(firstAnswer, DAG_CODES);
      check(!invalid, `engine answer is not all VALID: ${invalid}`);
      const engineCalls = await stubStats('reset=1&record=1');
      const engineUrls = engineCalls.calls.map((c) => c.url).sort();
      check(engineCalls.dag === 12 && engineCalls.tp === 0, `the stub saw ${engineCalls.dag} DAG calls (expected 12) for one engine query: ${JSON.stringify(engineUrls)}`);
      const baselineAnswer = await baseline.run();
      const baselineCalls = await stubStats('reset=1&record=0');
      const baselineUrls = baselineCalls.calls.map((c) => c.url).sort();
      check(baselineCalls.dag === 12, `the stub saw ${baselineCalls.dag} calls (expected 12) for one baseline run`);
      check(
        JSON.stringify(engineUrls) === JSON.stringify(baselineUrls),
        `the engine and the baseline do not make the same calls:\n engine   ${engineUrls.join('\n          ')}\n baseline ${baselineUrls.join('\n          ')}`,
      );
      for (const code of DAG_CODES) {
        check(
          JSON.stringify(firstAnswer.components[code].response) === JSON.stringify(baselineAnswer[code]),
          `${code}: engine answered ${JSON.stringify(firstAnswer.components[code].response)}, baseline got ${JSON.stringify(baselineAnswer[code])}`,
        );
      }
      // The answers are those of the URLs, so the URLs carry the dependency values.
      for (const url of engineUrls) {
        const code = url.slice('/dag/'.length, url.indexOf('?'));
        check(JSON.stringify(firstAnswer.components[code].response) === JSON.stringify(dagAnswer(code, url)), `${code}: answer does not match ${url}`);
      }
      log(`verified: 12/12 VALID, 12 stub calls per query, identical URLs for engine and baseline (e.g. ${engineUrls.find((u) => u.startsWith('/dag/c2'))})`);

      // ---- (1) orchestration overhead -------------------------------------------------------
      const n = P.overheadIterations;
      const engineMs = new Float64Array(n);
      const engineServerMs = new Float64Array(n);
      const baselineMs = new Float64Array(n);
      const healthMs = new Float64Array(n);
      const noAuthMs = new Float64Array(n);
      const badTokenMs = new Float64Array(n);
      const notFoundMs = new Float64Array(n);
      /** Start and end (epoch ms) of each measured run, in the order the runs were made. */
      const runs: { side: 'engine' | 'baseline'; startedAt: number; endedAt: number }[] = [];
      const timeEngine = async () => {
        const startedAt = epochNow();
        const t0 = performance.now();
        const answer = await engineOnce();
        const elapsed = performance.now() - t0;
        runs.push({ side: 'engine', startedAt, endedAt: epochNow() });
        const bad = allValid(answer, DAG_CODES);
        check(!bad, `engine answer is not all VALID during the run: ${bad}`);
        return { elapsed, server: answer.duration };
      };
      const timeBaseline = async () => {
        const startedAt = epochNow();
        const t0 = performance.now();
        await baseline!.run();
        const elapsed = performance.now() - t0;
        runs.push({ side: 'baseline', startedAt, endedAt: epochNow() });
        return elapsed;
      };
      const timeHealth = async () => {
        const t0 = performance.now();
        await send(hostPool, '/health');
        return performance.now() - t0;
      };
      // Probes of the front path, each stopping one step further than the last:
      //  no Authorization header -> 401 before any credential look-up (HTTP, routing, body);
      //  an unknown token        -> 401 after the credential look-up;
      //  an unknown component    -> 404 after the look-up, body parsing and validation and the
      //                             compiled configuration, without running anything.
      const probe = (label: string, headers: Record<string, string>, body: string, status: number) => async () => {
        const t0 = performance.now();
        const res = await hostPool.request({ path: '/experience/components/_query', method: 'POST', headers, body });
        await res.body.text();
        const elapsed = performance.now() - t0;
        check(res.statusCode === status, `${label} answered ${res.statusCode}, expected ${status}`);
        return elapsed;
      };
      const timeNoAuth = probe('a query without Authorization', { 'content-type': 'application/json', 'x-customer-code': ENGINE_HEADERS['x-customer-code'] }, dagBody, 401);
      const timeBadToken = probe('a query with an unknown token', { ...ENGINE_HEADERS, authorization: 'Bearer not-a-token' }, dagBody, 401);
      const timeNotFound = probe('a query for an unknown component', ENGINE_HEADERS, JSON.stringify({ componentCodes: ['no-such-component'], context: CONTEXT }), 404);
      const total = P.overheadWarmupIterations + n;
      let cpuAtStart = cpu();
      let measuredFrom = performance.now();
      const overheadStarted = performance.now();
      for (let i = 0; i < total; i++) {
        // Alternate which goes first, so neither side always follows the other's garbage.
        let e: { elapsed: number; server: number };
        let b: number;
        if (i % 2 === 0) {
          e = await timeEngine();
          b = await timeBaseline();
        } else {
          b = await timeBaseline();
          e = await timeEngine();
        }
        const h = await timeHealth();
        const na = await timeNoAuth();
        const bt = await timeBadToken();
        const nf = await timeNotFound();
        const k = i - P.overheadWarmupIterations;
        if (k >= 0) {
          engineMs[k] = e.elapsed;
          engineServerMs[k] = e.server;
          baselineMs[k] = b;
          healthMs[k] = h;
          noAuthMs[k] = na;
          badTokenMs[k] = bt;
          notFoundMs[k] = nf;
        }
        if (i === P.overheadWarmupIterations - 1) {
          runs.length = 0;
          await stubStats('record=1');
          cpuAtStart = cpu();
          measuredFrom = performance.now();
          log(`overhead: warm-up done (${P.overheadWarmupIterations} pairs), measuring ${n} pairs`);
        }
      }
      const overheadCpu = cpuShare(cpuAtStart, cpu(), performance.now() - measuredFrom);
      const overheadSeconds = (performance.now() - overheadStarted) / 1000;
      const afterOverhead = await stubStats('reset=1&record=0');
      check(afterOverhead.dag === 24 * total, `the stub saw ${afterOverhead.dag} calls during the overhead run, expected ${24 * total} (12 per engine query + 12 per baseline run)`);

      // Runs never overlap, so the recorded calls come in chunks of 12, one per run, in order.
      check(afterOverhead.calls.length === 12 * runs.length, `recorded ${afterOverhead.calls.length} calls for ${runs.length} runs`);
      const phases = { engine: { frontIn: [] as number[], upstreamSpan: [] as number[], frontOut: [] as number[], reactions: [] as number[] }, baseline: { frontIn: [] as number[], upstreamSpan: [] as number[], frontOut: [] as number[], reactions: [] as number[] } };
      runs.forEach((run, j) => {
        const chunk = afterOverhead.calls.slice(12 * j, 12 * j + 12);
        check(new Set(chunk.map((c) => codeOf(c.url))).size === 12, `run ${j} (${run.side}): recorded calls are not the 12 DAG nodes`);
        const t = timeline(chunk, run.startedAt, run.endedAt);
        const into = phases[run.side];
        into.frontIn.push(t.frontIn);
        into.upstreamSpan.push(t.upstreamSpan);
        into.frontOut.push(t.frontOut);
        into.reactions.push(...t.reactions);
      });
      const phaseSummary = (side: 'engine' | 'baseline') => ({
        frontInMs: summarize(phases[side].frontIn),
        upstreamSpanMs: summarize(phases[side].upstreamSpan),
        frontOutMs: summarize(phases[side].frontOut),
        hopReactionMs: summarize(phases[side].reactions),
      });
      const engPhases = phaseSummary('engine');
      const basePhases = phaseSummary('baseline');

      const eng = summarize(engineMs);
      const base = summarize(baselineMs);
      const server = summarize(engineServerMs);
      const health = summarize(healthMs);
      const diffs = engineMs.map((x, i) => x - baselineMs[i]);
      const overheadCi = pairedBootstrap(engineMs, baselineMs, (a, b) => median(a) - median(b));
      const ratioCi = pairedBootstrap(engineMs, baselineMs, (a, b) => median(a) / median(b));
      const overhead = {
        iterations: n,
        warmupIterations: P.overheadWarmupIterations,
        upstreamLatencyMs: P.dagLatencyMs,
        criticalPathMs: 4 * P.dagLatencyMs,
        engineMs: eng,
        baselineMs: base,
        engineServerDurationMs: server,
        probes: {
          healthRoundTripMs: health,
          queryWithoutAuthorizationMs: summarize(noAuthMs),
          queryWithUnknownTokenMs: summarize(badTokenMs),
          queryForUnknownComponentMs: summarize(notFoundMs),
          /** p50 differences: what each step of the front path adds. */
          stepsP50Ms: {
            httpHopAndRouting: median(noAuthMs),
            credentialLookup: median(badTokenMs) - median(noAuthMs),
            bodyValidationAndConfiguration: median(notFoundMs) - median(badTokenMs),
          },
        },
        cpuShareOfOneCore: overheadCpu,
        ratioP50: eng.p50 / base.p50,
        ratioP50Ci95: [ratioCi.low, ratioCi.high],
        ratioP99: eng.p99 / base.p99,
        overheadP50Ms: eng.p50 - base.p50,
        overheadP50Ci95Ms: [overheadCi.low, overheadCi.high],
        overheadP99Ms: eng.p99 - base.p99,
        pairedDifferenceMs: summarize(diffs),
        breakdownP50Ms: {
          clientToHostAndBack: eng.p50 - server.p50,
          insideRunQueryBeyondBaseline: server.p50 - base.p50,
        },
        /**
         * The timeline of each run on the stub's clock (see timeline()): p50 of each phase for
         * the engine and the baseline, and the engine's excess.
         */
        phases: {
          engine: engPhases,
          baseline: basePhases,
          engineExcessP50Ms: {
            frontIn: engPhases.frontInMs.p50 - basePhases.frontInMs.p50,
            upstreamSpan: engPhases.upstreamSpanMs.p50 - basePhases.upstreamSpanMs.p50,
            frontOut: engPhases.frontOutMs.p50 - basePhases.frontOutMs.p50,
            perHopReaction: engPhases.hopReactionMs.p50 - basePhases.hopReactionMs.p50,
          },
        },
        targets: {
          ratioP50: { target: 1.05, met: eng.p50 / base.p50 <= 1.05 },
          overheadP50Ms: { target: 1, met: eng.p50 - base.p50 <= 1 },
        },
        runSeconds: overheadSeconds,
      };
      log(`overhead: done in ${overheadSeconds.toFixed(1)} s`);

      // ---- (2) throughput ---------------------------------------------------------------------
      const c = P.concurrency;
      const hostLoad = pool(host.info.url, c);
      const stubLoad = pool(stub.info.url, c);
      pools.push(hostLoad, stubLoad);
      const tpBody = JSON.stringify({ componentCodes: TP_CODES, context: CONTEXT });
      let invalidAnswers = 0;
      const engineQuery = async () => {
        const answer = JSON.parse(await send(hostLoad, '/experience/components/_query', { method: 'POST', headers: ENGINE_HEADERS, body: tpBody })) as QueryAnswer;
        if (allValid(answer, TP_CODES)) invalidAnswers++;
      };
      const rawPath = `/tp/t0?${USER_QS}`;
      const rawHeaders = { accept: 'application/json' };
      const stubQuery = async () => {
        JSON.parse(await send(stubLoad, rawPath, { headers: rawHeaders }));
      };
      const measure = async (label: string, warmupMs: number, durationMs: number, req: () => Promise<void>) => {
        const warm = await closedLoop({ concurrency: c, durationMs: warmupMs, request: req });
        check(warm.errors === 0, `${label}: ${warm.errors} errors during warm-up, first: ${warm.firstError}`);
        const before = cpu();
        const result = await closedLoop({ concurrency: c, durationMs, request: req });
        const share = cpuShare(before, cpu(), result.elapsedMs);
        check(result.errors === 0, `${label}: ${result.errors} errors, first: ${result.firstError}`);
        log(`${label}: ${result.perSecond.toFixed(0)}/s over ${(result.elapsedMs / 1000).toFixed(1)} s`);
        return { warm, result, share };
      };

      await stubStats('reset=1');
      const rawBefore = await measure('stub raw (before)', P.stubRawWarmupMs, P.stubRawMs, stubQuery);
      const rawCalls = await stubStats('reset=1');
      check(rawCalls.tp === rawBefore.warm.completed + rawBefore.result.completed, `stub counted ${rawCalls.tp} raw calls, load generator ${rawBefore.warm.completed + rawBefore.result.completed}`);
      const engineRun = await measure('engine queries', P.throughputWarmupMs, P.throughputMs, engineQuery);
      const engineCallsSeen = await stubStats('reset=1');
      const queriesSent = engineRun.warm.completed + engineRun.result.completed;
      check(invalidAnswers === 0, `${invalidAnswers} engine answers were not all VALID during the throughput run`);
      check(engineCallsSeen.tp === 3 * queriesSent && engineCallsSeen.dag === 0, `the stub saw ${engineCallsSeen.tp} calls for ${queriesSent} queries (expected 3 each)`);
      const rawAfter = await measure('stub raw (after)', P.stubRawWarmupMs, P.stubRawMs, stubQuery);

      const rawCompleted = rawBefore.result.completed + rawAfter.result.completed;
      const rawElapsed = rawBefore.result.elapsedMs + rawAfter.result.elapsedMs;
      const stubRawPerSecond = (rawCompleted / rawElapsed) * 1000;
      const queriesPerSecond = engineRun.result.perSecond;
      const throughput = {
        concurrency: c,
        engine: {
          warmupMs: P.throughputWarmupMs,
          ...loadSummary(engineRun.result),
          queriesPerSecond,
          upstreamCallsPerSecond: queriesPerSecond * 3,
          cpuShareOfOneCore: engineRun.share,
          hostCpuMsPerQuery: (engineRun.share.host * engineRun.result.elapsedMs) / engineRun.result.completed,
        },
        stubRaw: {
          warmupMs: P.stubRawWarmupMs,
          requestsPerSecond: stubRawPerSecond,
          before: loadSummary(rawBefore.result),
          after: loadSummary(rawAfter.result),
          latencyMs: summarize([...rawBefore.result.latenciesMs, ...rawAfter.result.latenciesMs]),
          cpuShareOfOneCore: rawBefore.share,
          cpuShareOfOneCoreAfter: rawAfter.share,
        },
        ratios: {
          upstreamCallsPerSecondOverStubRaw: (queriesPerSecond * 3) / stubRawPerSecond,
          queriesPerSecondOverStubRaw: queriesPerSecond / stubRawPerSecond,
          engineP50OverStubRawP50: summarize(engineRun.result.latenciesMs).p50 / summarize([...rawBefore.result.latenciesMs, ...rawAfter.result.latenciesMs]).p50,
        },
      };
      // Keep the result file readable: the per-request latencies are summarised, not listed.

      const t = throughput;
      const report = [
        `(1) orchestration overhead: 12 components, depth 4, upstream ${P.dagLatencyMs} ms/call, ${n} interleaved pairs after ${P.overheadWarmupIterations} warm-up pairs`,
        line('engine query (client-measured)', eng),
        line('baseline (hand-written, 12 calls)', base),
        line('engine duration (inside runQuery)', server),
        line('GET /health round trip', health),
        line('query without Authorization (401)', overhead.probes.queryWithoutAuthorizationMs),
        line('query with unknown token (401)', overhead.probes.queryWithUnknownTokenMs),
        line('query for unknown component (404)', overhead.probes.queryForUnknownComponentMs),
        line('paired difference engine-baseline', overhead.pairedDifferenceMs),
        `ratio p50 engine/baseline        ${overhead.ratioP50.toFixed(4)}  (95% CI ${ratioCi.low.toFixed(4)}..${ratioCi.high.toFixed(4)})  target <= 1.05: ${overhead.targets.ratioP50.met ? 'met' : 'MISSED'}`,
        `ratio p99 engine/baseline        ${overhead.ratioP99.toFixed(4)}`,
        `engine overhead p50              ${ms(overhead.overheadP50Ms)}  (95% CI ${ms(overheadCi.low)}..${ms(overheadCi.high)})  target <= 1 ms: ${overhead.targets.overheadP50Ms.met ? 'met' : 'MISSED'}`,
        `  outside runQuery (client<->host HTTP, auth, parsing, serialising): ${ms(overhead.breakdownP50Ms.clientToHostAndBack)}; inside runQuery beyond the baseline: ${ms(overhead.breakdownP50Ms.insideRunQueryBeyondBaseline)}`,
        `  timeline p50 (engine vs baseline): start->first upstream call ${ms(engPhases.frontInMs.p50)} vs ${ms(basePhases.frontInMs.p50)}; upstream span ${ms(engPhases.upstreamSpanMs.p50)} vs ${ms(basePhases.upstreamSpanMs.p50)}; last answer->result ${ms(engPhases.frontOutMs.p50)} vs ${ms(basePhases.frontOutMs.p50)}`,
        `  per dependent call, dependency answered -> dependent call arrived: p50 ${ms(engPhases.hopReactionMs.p50)} vs ${ms(basePhases.hopReactionMs.p50)} (p99 ${ms(engPhases.hopReactionMs.p99)} vs ${ms(basePhases.hopReactionMs.p99)})`,
        `  front path steps p50: HTTP hop + routing ${ms(overhead.probes.stepsP50Ms.httpHopAndRouting)}, credential look-up +${ms(overhead.probes.stepsP50Ms.credentialLookup)}, body validation + configuration +${ms(overhead.probes.stepsP50Ms.bodyValidationAndConfiguration)}`,
        `  CPU during the measured pairs (cores): host ${overheadCpu.host.toFixed(2)}, stub ${overheadCpu.stub.toFixed(2)}, bench ${overheadCpu.loadGenerator.toFixed(2)}, other processes on the machine ${overheadCpu.otherProcesses.toFixed(2)}`,
        '',
        `(2) throughput at concurrency ${c}: 3 independent components, zero-latency stub`,
        `engine: ${t.engine.queriesPerSecond.toFixed(0)} queries/s (per-second min ${t.engine.perSecondWindows.min} / p50 ${t.engine.perSecondWindows.p50} / max ${t.engine.perSecondWindows.max}) = ${t.engine.upstreamCallsPerSecond.toFixed(0)} upstream calls/s`,
        line('  engine query latency', t.engine.latencyMs),
        `stub raw: ${t.stubRaw.requestsPerSecond.toFixed(0)} requests/s (before ${t.stubRaw.before.perSecond.toFixed(0)}, after ${t.stubRaw.after.perSecond.toFixed(0)})`,
        line('  stub raw latency', t.stubRaw.latencyMs),
        `upstream calls/s over stub raw requests/s: ${t.ratios.upstreamCallsPerSecondOverStubRaw.toFixed(3)}; queries/s over stub raw: ${t.ratios.queriesPerSecondOverStubRaw.toFixed(3)}`,
        `CPU during the engine run (cores): host ${t.engine.cpuShareOfOneCore.host.toFixed(2)}, stub ${t.engine.cpuShareOfOneCore.stub.toFixed(2)}, load generator ${t.engine.cpuShareOfOneCore.loadGenerator.toFixed(2)}, other processes ${t.engine.cpuShareOfOneCore.otherProcesses.toFixed(2)}; host CPU per query ${ms(t.engine.hostCpuMsPerQuery)}`,
        `CPU during the stub raw run (cores): stub ${t.stubRaw.cpuShareOfOneCore.stub.toFixed(2)}, load generator ${t.stubRaw.cpuShareOfOneCore.loadGenerator.toFixed(2)}, other processes ${t.stubRaw.cpuShareOfOneCore.otherProcesses.toFixed(2)}`,
      ];
      return {
        figures: {
          parameters: { ...P, hostNodeArgs: HOST_NODE_ARGS, quick: QUICK },
          verification: {
            allValid: true,
            stubCallsPerEngineQuery: engineCalls.dag,
            stubCallsPerBaselineRun: baselineCalls.dag,
            sameUrlsAsBaseline: true,
            overheadRunStubCalls: afterOverhead.dag,
            throughputRunStubCalls: engineCallsSeen.tp,
            throughputQueries: queriesSent,
          },
          overhead,
          throughput,
        },
        report,
      };
    } finally {
      await baseline?.close().catch(() => undefined);
      await Promise.all(pools.map((p) => p.close().catch(() => undefined)));
      await Promise.all(children.map((child) => child.stop()));
    }
  },
};

export default suite;
