import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobExecutionInput, JobType, TaskHandler } from '../../../ports/job-runner';
import {
  LocalExecutionError,
  LocalStateMachineRefusedError,
  LocalStepFunctionsRunner,
  localFunctionArn,
} from '../local-step-functions';

const asl = (name: string) => fileURLToPath(new URL(`../../../../statemachines/${name}.asl.json`, import.meta.url));
const DEFINITIONS: Record<JobType, string> = {
  downloadDataFromWebservice: asl('download-data-from-webservice'),
  importDataFiles: asl('import-data-files'),
  callWebservice: asl('call-webservice'),
};

type Call = { fn: 'job' | 'import'; payload: any };
type Behaviour = (fn: Call['fn'], payload: any, call: number) => Promise<unknown> | unknown;

/** In-memory task handlers: every call recorded, the answer given by the test's `behaviour`. */
let calls: Call[] = [];
let behaviour: Behaviour = () => ({});
let failures: { err: LocalExecutionError; input: JobExecutionInput }[] = [];
const recording =
  (fn: Call['fn']): TaskHandler =>
  async (payload) => {
    calls.push({ fn, payload });
    return behaviour(fn, payload, calls.length);
  };
const FUNCTIONS = { JobWorkerFunctionArn: recording('job'), ImportWorkerFunctionArn: recording('import') };

const input = (jobType: JobType, jobId: string, params: unknown = { p: 1 }, event: unknown = null): JobExecutionInput => ({
  jobId,
  customerCode: 'acme',
  jobType,
  params,
  progress: {},
  event,
});

class UpstreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamError';
  }
}

let runner: LocalStepFunctionsRunner;
let constructionMs = 0;
beforeAll(() => {
  const t0 = performance.now();
  runner = new LocalStepFunctionsRunner({
    definitions: DEFINITIONS,
    functions: FUNCTIONS,
    onError: (err, inp) => failures.push({ err, input: inp }),
    fastRetries: true,
  });
  constructionMs = performance.now() - t0;
  console.log(`[local-step-functions] building the 3 state machines: ${constructionMs.toFixed(0)} ms`);
});
beforeEach(() => {
  calls = [];
  failures = [];
  behaviour = () => ({});
});
afterAll(async () => {
  await runner?.stop();
});

async function run(job: JobExecutionInput): Promise<Call[]> {
  await runner.start(job);
  await runner.idle();
  return calls;
}

const start = (jobId: string) => ({ fn: 'job', payload: { jobId, customerCode: 'acme', task: 'job.start' } });

describe('LocalStepFunctionsRunner: download-data-from-webservice.asl.json', () => {
  it('loops FetchPage while hasMore, passing progress along, then job.finish SUCCEEDED with the result', async () => {
    behaviour = (_fn, p) => {
      if (p.task !== 'download.page') return { ok: true };
      const batchNumber = (p.progress.batchNumber ?? 0) + 1;
      return { hasMore: batchNumber < 3, progress: { batchNumber, result: { pagesFetched: batchNumber } } };
    };
    const page = (progress: unknown) => ({
      fn: 'job',
      payload: { jobId: 'd1', customerCode: 'acme', task: 'download.page', params: { p: 1 }, progress },
    });
    expect(await run(input('downloadDataFromWebservice', 'd1'))).toStrictEqual([
      start('d1'),
      page({}),
      page({ batchNumber: 1, result: { pagesFetched: 1 } }),
      page({ batchNumber: 2, result: { pagesFetched: 2 } }),
      {
        fn: 'job',
        payload: { jobId: 'd1', customerCode: 'acme', task: 'job.finish', status: 'SUCCEEDED', result: { pagesFetched: 3 } },
      },
    ]);
    expect(failures).toEqual([]);
  });

  it("a throwing handler ends in MarkFailed: Error = the error's name, Cause = Lambda's JSON", async () => {
    behaviour = (_fn, p) => {
      if (p.task !== 'download.page') return null;
      if (p.progress.batchNumber === 1) throw new UpstreamError('upstream answered 503');
      return { hasMore: true, progress: { batchNumber: 1, result: {} } };
    };
    const seen = await run(input('downloadDataFromWebservice', 'd2'));
    expect(seen.map((c) => c.payload.task)).toEqual(['job.start', 'download.page', 'download.page', 'job.finish']);
    const finish = seen.at(-1)!.payload;
    expect(finish).toStrictEqual({
      jobId: 'd2',
      customerCode: 'acme',
      task: 'job.finish',
      status: 'FAILED',
      error: {
        Error: 'UpstreamError',
        Cause: '{"errorType":"UpstreamError","errorMessage":"upstream answered 503","trace":[]}',
      },
    });
    expect(JSON.parse(finish.error.Cause).errorMessage).toBe('upstream answered 503');
    // The execution then ends in the ASL's own Fail state: reported, marked as expected.
    expect(failures).toHaveLength(1);
    expect(failures[0]!.err).toBeInstanceOf(LocalExecutionError);
    expect(failures[0]!.err).toMatchObject({ jobId: 'd2', error: 'JobFailed', failState: true });
    expect(failures[0]!.input.jobId).toBe('d2');
  });

  it('a failing job.start is caught too; something thrown that is not an Error is Error "Error"', async () => {
    behaviour = (_fn, p) => {
      if (p.task === 'job.start') throw 'no such job';
      return null;
    };
    const seen = await run(input('downloadDataFromWebservice', 'd3'));
    expect(seen.map((c) => c.payload.task)).toEqual(['job.start', 'job.finish']);
    expect(seen[1]!.payload.error).toStrictEqual({
      Error: 'Error',
      Cause: '{"errorType":"Error","errorMessage":"no such job","trace":[]}',
    });
  });

  it('retries the ASL Retry errors (Lambda.TooManyRequestsException), at once with fastRetries', async () => {
    let throttled = false;
    behaviour = (_fn, p) => {
      if (p.task !== 'download.page') return null;
      if (!throttled) {
        throttled = true;
        const err = new Error('Rate exceeded');
        err.name = 'Lambda.TooManyRequestsException';
        throw err;
      }
      return { hasMore: false, progress: { result: { pagesFetched: 1 } } };
    };
    const t0 = performance.now();
    const seen = await run(input('downloadDataFromWebservice', 'd4'));
    expect(performance.now() - t0).toBeLessThan(900); // the ASL's IntervalSeconds is 1
    expect(seen.map((c) => c.payload.task)).toEqual(['job.start', 'download.page', 'download.page', 'job.finish']);
    expect(seen[1]!.payload).toStrictEqual(seen[2]!.payload);
    expect(seen[3]!.payload.status).toBe('SUCCEEDED');
  });

  it('a result over the 256 KiB state data limit fails the execution uncaught, as AWS does', async () => {
    behaviour = (_fn, p) => (p.task === 'download.page' ? { hasMore: false, progress: { result: 'x'.repeat(300_000) } } : null);
    const seen = await run(input('downloadDataFromWebservice', 'd5'));
    expect(seen.map((c) => c.payload.task)).toEqual(['job.start', 'download.page']);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.err).toMatchObject({ error: 'States.DataLimitExceeded', failState: false });
  });

  it('measures a 100-page download with instant handlers', async () => {
    behaviour = (_fn, p) => {
      if (p.task !== 'download.page') return null;
      const batchNumber = (p.progress.batchNumber ?? 0) + 1;
      return { hasMore: batchNumber < 100, progress: { batchNumber, result: { pagesFetched: batchNumber } } };
    };
    const timings: number[] = [];
    for (let i = 0; i < 5; i++) {
      calls = [];
      const t0 = performance.now();
      await run(input('downloadDataFromWebservice', `perf-${i}`));
      timings.push(performance.now() - t0);
      expect(calls).toHaveLength(102);
      expect(calls.at(-1)!.payload).toMatchObject({ status: 'SUCCEEDED', result: { pagesFetched: 100 } });
    }
    console.log(
      `[local-step-functions] 100-page download (301 states entered, 102 tasks): ${timings.map((t) => t.toFixed(1)).join(', ')} ms`,
    );
  });
});

describe('LocalStepFunctionsRunner: import-data-files.asl.json', () => {
  const chunksPerFile: Record<string, number> = { 'a.csv': 3, 'b.csv': 1, 'c.csv': 2 };
  const importBehaviour: Behaviour = (fn, p) => {
    if (p.task === 'import.list') return { files: ['a.csv', 'b.csv', 'c.csv'], skipped: ['notes.txt'] };
    if (p.task === 'import.chunk') {
      const chunk = (p.progress.chunk ?? 0) + 1;
      return {
        done: chunk >= chunksPerFile[p.filename]!,
        progress: { filename: p.filename, chunk, records: chunk * 10 },
      };
    }
    return { fn };
  };

  it('lists files, imports each in a chunk loop (inline Map) until done, then job.finish with files', async () => {
    behaviour = importBehaviour;
    const seen = await run(input('importDataFiles', 'i1', { bucket: 'in' }));
    expect(seen.slice(0, 2)).toStrictEqual([
      start('i1'),
      { fn: 'import', payload: { jobId: 'i1', customerCode: 'acme', task: 'import.list', params: { bucket: 'in' } } },
    ]);
    const chunks = seen.slice(2, -1);
    expect(chunks.every((c) => c.fn === 'import' && c.payload.task === 'import.chunk')).toBe(true);
    for (const [filename, count] of Object.entries(chunksPerFile)) {
      const ofFile = chunks.filter((c) => c.payload.filename === filename).map((c) => c.payload);
      expect(ofFile).toStrictEqual(
        Array.from({ length: count }, (_, i) => ({
          task: 'import.chunk',
          jobId: 'i1',
          customerCode: 'acme',
          params: { bucket: 'in' },
          filename,
          progress: i === 0 ? {} : { filename, chunk: i, records: i * 10 },
        })),
      );
    }
    expect(chunks).toHaveLength(6);
    expect(seen.at(-1)).toStrictEqual({
      fn: 'job',
      payload: {
        jobId: 'i1',
        customerCode: 'acme',
        task: 'job.finish',
        status: 'SUCCEEDED',
        files: [
          { filename: 'a.csv', chunk: 3, records: 30 },
          { filename: 'b.csv', chunk: 1, records: 10 },
          { filename: 'c.csv', chunk: 2, records: 20 },
        ],
        skipped: ['notes.txt'],
      },
    });
    expect(failures).toEqual([]);
  });

  it('no files: the Map runs nothing and job.finish gets files []', async () => {
    behaviour = (fn, p) => (p.task === 'import.list' ? { files: [], skipped: [] } : importBehaviour(fn, p, 0));
    const seen = await run(input('importDataFiles', 'i2'));
    expect(seen.map((c) => c.payload.task)).toEqual(['job.start', 'import.list', 'job.finish']);
    expect(seen[2]!.payload).toMatchObject({ status: 'SUCCEEDED', files: [], skipped: [] });
  });

  it("a chunk failing inside the Map is caught by the Map's Catch: MarkFailed with the error", async () => {
    behaviour = (fn, p, n) => {
      if (p.task === 'import.chunk' && p.filename === 'b.csv') throw new RangeError('line 7: not JSON');
      return importBehaviour(fn, p, n);
    };
    const seen = await run(input('importDataFiles', 'i3'));
    const finish = seen.at(-1)!.payload;
    expect(finish).toMatchObject({ task: 'job.finish', status: 'FAILED', jobId: 'i3' });
    expect(finish.error).toStrictEqual({
      Error: 'RangeError',
      Cause: '{"errorType":"RangeError","errorMessage":"line 7: not JSON","trace":[]}',
    });
    expect(seen.filter((c) => c.payload.task === 'job.finish')).toHaveLength(1);
  });
});

describe('LocalStepFunctionsRunner: call-webservice.asl.json', () => {
  it('calls the web service with params and event, then job.finish SUCCEEDED with its result', async () => {
    behaviour = (_fn, p) => (p.task === 'callWebservice.call' ? { status: 200, body: 'ok' } : { ignored: true });
    const event = { id: 'e1', type: 'DataRecordCreated' };
    expect(await run(input('callWebservice', 'c1', { url: 'https://x' }, event))).toStrictEqual([
      start('c1'),
      {
        fn: 'job',
        payload: { jobId: 'c1', customerCode: 'acme', task: 'callWebservice.call', params: { url: 'https://x' }, event },
      },
      {
        fn: 'job',
        payload: { jobId: 'c1', customerCode: 'acme', task: 'job.finish', status: 'SUCCEEDED', result: { status: 200, body: 'ok' } },
      },
    ]);
  });

  it('a handler returning undefined answers null, as a Lambda does', async () => {
    behaviour = () => undefined;
    const seen = await run(input('callWebservice', 'c2'));
    expect(seen.at(-1)!.payload).toStrictEqual({
      jobId: 'c2',
      customerCode: 'acme',
      task: 'job.finish',
      status: 'SUCCEEDED',
      result: null,
    });
  });
});

describe('LocalStepFunctionsRunner: start, idle, stop', () => {
  it('start resolves before the run (like StartExecution); idle waits for every execution', async () => {
    behaviour = async (_fn, p) => {
      await new Promise((r) => setTimeout(r, 10));
      return p.task === 'callWebservice.call' ? { n: p.jobId } : null;
    };
    await Promise.all(['s1', 's2', 's3'].map((id) => runner.start(input('callWebservice', id))));
    expect(calls).toEqual([]);
    expect(runner.runningCount).toBe(3);
    await runner.idle();
    expect(runner.runningCount).toBe(0);
    expect(calls).toHaveLength(9);
    expect(calls.filter((c) => c.payload.task === 'job.finish').map((c) => c.payload.result.n).sort()).toEqual(['s1', 's2', 's3']);
  });

  it('starting the same job twice runs it once (execution names are unique)', async () => {
    await runner.start(input('callWebservice', 'twice'));
    await runner.start(input('callWebservice', 'twice'));
    await runner.idle();
    expect(calls.map((c) => c.payload.task)).toEqual(['job.start', 'callWebservice.call', 'job.finish']);
  });

  it('refuses an unknown job type', async () => {
    await expect(runner.start({ ...input('callWebservice', 'x'), jobType: 'nope' as JobType })).rejects.toThrow(/nope/);
  });

  it('stop aborts running executions, waits for in-flight handlers and refuses new starts', async () => {
    const own = new LocalStepFunctionsRunner({ definitions: DEFINITIONS, functions: FUNCTIONS, onError: (err, inp) => failures.push({ err, input: inp }) });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let handlerFinished = false;
    behaviour = async (_fn, p) => {
      if (p.task === 'callWebservice.call') {
        await gate;
        handlerFinished = true;
      }
      return null;
    };
    await own.start(input('callWebservice', 'st1'));
    while (calls.length < 2) await new Promise((r) => setTimeout(r, 1));
    const stopped = own.stop();
    setTimeout(release, 20);
    await stopped;
    expect(handlerFinished).toBe(true);
    expect(calls.map((c) => c.payload.task)).toEqual(['job.start', 'callWebservice.call']);
    expect(failures).toEqual([]);
    await expect(own.start(input('callWebservice', 'st2'))).rejects.toThrow(/stopped/);
  });
});

describe('LocalStepFunctionsRunner: what it refuses', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'local-sfn-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (name: string, definition: unknown) => {
    const file = join(dir, `${name}.asl.json`);
    writeFileSync(file, JSON.stringify(definition));
    return file;
  };
  /** The real machines, with one replaced by a small inline definition. */
  const withCallWebservice = (file: string): Record<JobType, string> => ({ ...DEFINITIONS, callWebservice: file });
  const refusal = (definitions: Record<JobType, string>, functions: Record<string, TaskHandler> = FUNCTIONS) => {
    try {
      new LocalStepFunctionsRunner({ definitions, functions });
    } catch (err) {
      expect(err).toBeInstanceOf(LocalStateMachineRefusedError);
      return err as LocalStateMachineRefusedError;
    }
    throw new Error('expected the construction to be refused');
  };
  const task = (extra: Record<string, unknown> = {}) => ({
    Type: 'Task',
    Resource: 'arn:aws:states:::lambda:invoke',
    Parameters: { FunctionName: '${JobWorkerFunctionArn}', 'Payload.$': '$' },
    TimeoutSeconds: 10,
    End: true,
    ...extra,
  });

  it('a Task whose function has no local handler (nested Map tasks included), listing each', () => {
    const err = refusal(DEFINITIONS, { JobWorkerFunctionArn: FUNCTIONS.JobWorkerFunctionArn });
    expect(err.problems).toEqual([
      expect.stringMatching(/import-data-files\.asl\.json: state ListFiles: no local handler for FunctionName \$\{ImportWorkerFunctionArn\}/),
      expect.stringMatching(/import-data-files\.asl\.json: state ImportChunk: no local handler for FunctionName \$\{ImportWorkerFunctionArn\}/),
    ]);
    expect(err.message).toContain('ListFiles');
    expect(err.message).toContain('ImportChunk');
  });

  it('JSONata, at the top or on a state', () => {
    const top = refusal(withCallWebservice(write('jsonata-top', { QueryLanguage: 'JSONata', StartAt: 'T', States: { T: task() } })));
    expect(top.problems).toEqual([expect.stringMatching(/definition: QueryLanguage JSONata/)]);
    const state = refusal(
      withCallWebservice(
        write('jsonata-state', {
          StartAt: 'T',
          States: { T: { ...task({ QueryLanguage: 'JSONata', Arguments: { FunctionName: '${JobWorkerFunctionArn}', Payload: '{% $states.input %}' } }) } },
        }),
      ),
    );
    expect(state.problems.join('\n')).toMatch(/state T: QueryLanguage JSONata/);
    expect(state.problems.join('\n')).toMatch(/state T: Arguments is a JSONata field/);
  });

  it('a Distributed Map', () => {
    const err = refusal(
      withCallWebservice(
        write('distributed', {
          StartAt: 'M',
          States: {
            M: {
              Type: 'Map',
              ItemsPath: '$.items',
              ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'Inner', States: { Inner: task() } },
              End: true,
            },
          },
        }),
      ),
    );
    expect(err.problems).toEqual([expect.stringMatching(/state M: Distributed Map/)]);
  });

  it('Assign, no TimeoutSeconds, a Resource other than lambda:invoke, a FunctionName that is no placeholder: all listed at once', () => {
    const err = refusal(
      withCallWebservice(
        write('many', {
          StartAt: 'A',
          States: {
            A: { Type: 'Pass', Assign: { x: 1 }, Next: 'B' },
            B: { ...task({ TimeoutSeconds: undefined }), End: undefined, Next: 'C' },
            C: { ...task({ Resource: 'arn:aws:states:::sqs:sendMessage' }), End: undefined, Next: 'D' },
            D: task({ Parameters: { FunctionName: 'arn:aws:lambda:eu-west-1:123456789012:function:real', 'Payload.$': '$' } }),
          },
        }),
      ),
    );
    expect(err.problems).toEqual([
      expect.stringMatching(/state A: Assign/),
      expect.stringMatching(/state B: no TimeoutSeconds/),
      expect.stringMatching(/state C: Resource arn:aws:states:::sqs:sendMessage is not arn:aws:states:::lambda:invoke/),
      expect.stringMatching(/state D: Parameters.FunctionName must be one \$\{Placeholder\}/),
    ]);
  });

  it('answers like lambda:invoke ({ExecutedVersion, Payload, StatusCode})', async () => {
    const seen: unknown[] = [];
    const file = write('raw-answer', {
      StartAt: 'Raw',
      States: {
        Raw: {
          ...task({ Parameters: { FunctionName: '${JobWorkerFunctionArn}', Payload: { n: 1 } } }),
          ResultPath: '$.raw',
          End: undefined,
          Next: 'Echo',
        },
        Echo: task({ Parameters: { FunctionName: '${JobWorkerFunctionArn}', 'Payload.$': '$.raw' } }),
      },
    });
    const own = new LocalStepFunctionsRunner({
      definitions: withCallWebservice(file),
      functions: {
        ...FUNCTIONS,
        JobWorkerFunctionArn: async (p) => {
          seen.push(p);
          return { answer: p.n ?? 'echo' };
        },
      },
    });
    await own.start(input('callWebservice', 'raw'));
    await own.idle();
    expect(seen).toStrictEqual([{ n: 1 }, { ExecutedVersion: '$LATEST', Payload: { answer: 1 }, StatusCode: 200 }]);
    expect(localFunctionArn('JobWorkerFunctionArn')).toBe('arn:aws:lambda:local:000000000000:function:JobWorkerFunctionArn');
    await own.stop();
  });
});
