import './promise-with-resolvers';
import { readFileSync } from 'node:fs';
import {
  ExecutionAbortedError,
  ExecutionError,
  StateMachine,
  type RunOptions,
  type StateMachineDefinition,
} from 'aws-local-stepfunctions';
import type { JobExecutionInput, JobRunner, JobType, TaskHandler } from '../../ports/job-runner';

/**
 * The JobRunner port in the local host: runs the SAME ASL files that CDK deploys
 * (`statemachines/*.asl.json`) in-process with aws-local-stepfunctions.
 *
 * The library looks local task handlers up by STATE NAME and, for a Task without one, calls
 * real Lambda over the AWS SDK. This adapter therefore:
 * - substitutes the `${Name}` placeholders (CDK's `definitionSubstitutions`) with fake local
 *   ARNs, and maps every Task state (nested Map/Parallel states included) to the handler of
 *   its placeholder;
 * - refuses at construction, listing every problem, what the library cannot run like AWS:
 *   a Task without a local handler, without `TimeoutSeconds` (the library's default is 60 s,
 *   not AWS's 99999999 s), whose Resource is not `lambda:invoke`, and JSONata, `Assign` or
 *   Distributed Maps (the library silently ignores JSONata);
 * - answers like `lambda:invoke`: `{ ExecutedVersion, Payload, StatusCode }`, the result going
 *   through JSON as a Lambda's does; a thrown error surfaces to `Retry`/`Catch` as Lambda's
 *   does: `Error` = the error's name, `Cause` = `{"errorType","errorMessage","trace":[]}` as JSON.
 */

/** The prefix of the fake ARNs that replace `${Name}` placeholders locally. */
export const LOCAL_FUNCTION_ARN_PREFIX = 'arn:aws:lambda:local:000000000000:function:';
export const localFunctionArn = (placeholder: string): string => `${LOCAL_FUNCTION_ARN_PREFIX}${placeholder}`;

const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';
const PLACEHOLDER = /\$\{([A-Za-z0-9_]+)\}/g;
const SINGLE_PLACEHOLDER = /^\$\{([A-Za-z0-9_]+)\}$/;
/** Step Functions' limit on an execution input and on a state's data (256 KiB). */
export const STATE_DATA_LIMIT_BYTES = 256 * 1024;

/** One or more ASL files cannot run locally as they would in AWS. */
export class LocalStateMachineRefusedError extends Error {
  constructor(readonly problems: string[]) {
    super(`aws-local-stepfunctions cannot run these state machines as AWS would:\n - ${problems.join('\n - ')}`);
    this.name = 'LocalStateMachineRefusedError';
  }
}

/**
 * What a throwing task handler becomes: Lambda's function error as `lambda:invoke` reports it
 * (aws-local-stepfunctions hands `name` to Retry/Catch as `Error`, `message` as `Cause`).
 */
export class LocalLambdaFunctionError extends Error {
  constructor(
    readonly errorType: string,
    readonly errorMessage: string,
  ) {
    super(JSON.stringify({ errorType, errorMessage, trace: [] }));
    this.name = errorType;
  }
}

/** A task's result over the 256 KiB state data limit: terminal in AWS (not caught by States.ALL). */
class StatesDataLimitExceededError extends Error {
  /** Read by aws-local-stepfunctions' Retry and Catch matching. */
  readonly isRetryable = false;
  readonly isCatchable = false;
  constructor(message: string) {
    super(message);
    this.name = 'States.DataLimitExceeded';
  }
}

/** An execution that did not succeed (never raised for executions aborted by `stop()`). */
export class LocalExecutionError extends Error {
  readonly jobType: JobType;
  readonly jobId: string;
  /** The execution's `Error` as Step Functions would report it. */
  readonly error: string;
  /** The execution's `Cause`. */
  readonly errorCause: string;
  /**
   * True when the execution ended in one of the ASL's own `Fail` states (e.g. `JobFailed`
   * after `MarkFailed` recorded the error): an expected outcome, not a fault of the runner.
   */
  readonly failState: boolean;
  constructor(fields: { jobType: JobType; jobId: string; error: string; errorCause: string; failState: boolean }, cause: unknown) {
    super(`${fields.jobType} execution ${fields.jobId} failed: ${fields.error}: ${fields.errorCause}`, { cause });
    this.name = 'LocalExecutionError';
    this.jobType = fields.jobType;
    this.jobId = fields.jobId;
    this.error = fields.error;
    this.errorCause = fields.errorCause;
    this.failState = fields.failState;
  }
}

export interface LocalStepFunctionsRunnerOptions {
  /** The ASL file of each job type's state machine. */
  definitions: Record<JobType, string>;
  /** The handler of each function placeholder of the ASL (`JobWorkerFunctionArn` for `${JobWorkerFunctionArn}`). */
  functions: Record<string, TaskHandler>;
  /**
   * Called for every execution that fails (aborts by `stop()` excepted). Default: logs to
   * stderr unless the execution ended in a Fail state of the ASL (`err.failState`).
   */
  onError?: (err: LocalExecutionError, input: JobExecutionInput) => void;
  /** Retry at once instead of after the ASL's `IntervalSeconds`/`BackoffRate` (tests). */
  fastRetries?: boolean;
}

interface PreparedMachine {
  machine: StateMachine;
  overrides: NonNullable<RunOptions['overrides']>;
  /** `Error` of the top-level Fail states. */
  failErrors: Set<string>;
  /** Task state name -> function placeholder name. */
  taskFunctions: Map<string, string>;
  /** Execution names already used (StartExecution names are unique per state machine). */
  startedNames: Set<string>;
}

interface RunningExecution {
  abort(): void;
  done: Promise<void>;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type AnyState = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What one ASL definition needs from the local host, and what stops it running locally like AWS. */
interface Analysis {
  taskFunctions: Map<string, string>;
  retryStates: string[];
  failErrors: Set<string>;
  problems: string[];
}

function analyse(file: string, definition: unknown, functions: Record<string, TaskHandler>): Analysis {
  const analysis: Analysis = { taskFunctions: new Map(), retryStates: [], failErrors: new Set(), problems: [] };
  const problem = (text: string) => analysis.problems.push(`${file}: ${text}`);
  const seen = new Set<string>();

  const walk = (machine: unknown, where: string, topLevel: boolean) => {
    if (!isObject(machine) || !isObject(machine.States) || typeof machine.StartAt !== 'string') {
      problem(`${where}: not a state machine (StartAt and States are required)`);
      return;
    }
    if (machine.QueryLanguage === 'JSONata') problem(`${where}: QueryLanguage JSONata is not supported locally (use JSONPath)`);
    for (const [name, value] of Object.entries(machine.States)) {
      const at = `state ${name}`;
      if (seen.has(name)) problem(`${at}: the name is used twice (local handlers are looked up by state name)`);
      seen.add(name);
      if (!isObject(value)) {
        problem(`${at}: not an object`);
        continue;
      }
      const state: AnyState = value;
      if (state.QueryLanguage === 'JSONata') problem(`${at}: QueryLanguage JSONata is not supported locally (use JSONPath)`);
      if ('Assign' in state) problem(`${at}: Assign (variables) is not supported locally`);
      for (const field of ['Arguments', 'Output', 'Items']) {
        if (field in state) problem(`${at}: ${field} is a JSONata field, not supported locally`);
      }
      for (const catcher of Array.isArray(state.Catch) ? state.Catch : []) {
        if (isObject(catcher) && 'Assign' in catcher) problem(`${at}: Assign in Catch is not supported locally`);
      }
      for (const rule of Array.isArray(state.Choices) ? state.Choices : []) {
        if (isObject(rule) && 'Assign' in rule) problem(`${at}: Assign in Choices is not supported locally`);
        if (isObject(rule) && 'Condition' in rule) problem(`${at}: Condition is a JSONata field, not supported locally`);
      }
      if (Array.isArray(state.Retry) && state.Retry.length > 0) analysis.retryStates.push(name);

      switch (state.Type) {
        case 'Task': {
          if (state.Resource !== LAMBDA_INVOKE) {
            problem(`${at}: Resource ${String(state.Resource)} is not ${LAMBDA_INVOKE} (the only integration run locally)`);
          }
          if (typeof state.TimeoutSeconds !== 'number' || state.TimeoutSeconds <= 0) {
            problem(`${at}: no TimeoutSeconds (aws-local-stepfunctions would time the task out at 60 s)`);
          }
          const parameters = state.Parameters;
          const functionName = isObject(parameters) ? parameters.FunctionName : undefined;
          const placeholder = typeof functionName === 'string' ? SINGLE_PLACEHOLDER.exec(functionName)?.[1] : undefined;
          if (placeholder === undefined) {
            problem(`${at}: Parameters.FunctionName must be one \${Placeholder}, found ${JSON.stringify(functionName)}`);
          } else if (typeof functions[placeholder] !== 'function') {
            problem(`${at}: no local handler for FunctionName \${${placeholder}} (it would call real Lambda)`);
          } else {
            analysis.taskFunctions.set(name, placeholder);
          }
          break;
        }
        case 'Map': {
          const processor = state.ItemProcessor ?? state.Iterator;
          const config = isObject(processor) ? processor.ProcessorConfig : undefined;
          if (isObject(config) && config.Mode === 'DISTRIBUTED') {
            problem(`${at}: Distributed Map (ProcessorConfig.Mode DISTRIBUTED) is not supported locally (use an inline Map)`);
          }
          for (const field of ['ItemReader', 'ResultWriter', 'ItemBatcher']) {
            if (field in state) problem(`${at}: ${field} is a Distributed Map field, not supported locally`);
          }
          walk(processor, `${at} ItemProcessor`, false);
          break;
        }
        case 'Parallel': {
          const branches = Array.isArray(state.Branches) ? state.Branches : [];
          branches.forEach((branch, i) => walk(branch, `${at} branch ${i}`, false));
          break;
        }
        case 'Fail':
          if (topLevel && typeof state.Error === 'string') analysis.failErrors.add(state.Error);
          break;
        default:
          break;
      }
    }
  };

  walk(definition, 'definition', true);
  return analysis;
}

/** CDK's `definitionSubstitutions`, with fake local ARNs: every `${Name}` in every string. */
function substitute(value: unknown, functions: Record<string, TaskHandler>, unknown: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (whole, name: string) => {
      if (typeof functions[name] !== 'function') {
        unknown.add(name);
        return whole;
      }
      return localFunctionArn(name);
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, functions, unknown));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, functions, unknown)]));
  }
  return value;
}

/** Lambda's function-error shape for anything a handler throws (errorType = the error's name). */
function toLambdaError(thrown: unknown): LocalLambdaFunctionError {
  if (thrown instanceof Error) return new LocalLambdaFunctionError(thrown.name || 'Error', thrown.message);
  return new LocalLambdaFunctionError('Error', typeof thrown === 'string' ? thrown : safeJson(thrown));
}

async function drain(events: AsyncGenerator<unknown>): Promise<void> {
  try {
    for await (const _event of events) {
      // discarded
    }
  } catch {
    // the log only ends
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export class LocalStepFunctionsRunner implements JobRunner {
  private readonly machines = new Map<JobType, PreparedMachine>();
  private readonly running = new Set<RunningExecution>();
  /** Task handlers still running (a timed-out or aborted task's handler goes on in the background). */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly onError: (err: LocalExecutionError, input: JobExecutionInput) => void;
  private stopped = false;

  constructor(options: LocalStepFunctionsRunnerOptions) {
    this.onError =
      options.onError ??
      ((err) => {
        if (!err.failState) console.error(`[local-step-functions] ${err.message}`);
      });
    const problems: string[] = [];
    const prepared: [JobType, { definition: StateMachineDefinition; analysis: Analysis }][] = [];

    for (const [jobType, file] of Object.entries(options.definitions) as [JobType, string][]) {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        problems.push(`${file}: cannot read the ASL file: ${(err as Error).message}`);
        continue;
      }
      const analysis = analyse(file, raw, options.functions);
      problems.push(...analysis.problems);
      const unknownPlaceholders = new Set<string>();
      const definition = substitute(raw, options.functions, unknownPlaceholders) as StateMachineDefinition;
      for (const name of unknownPlaceholders) {
        const reported = analysis.problems.some((p) => p.includes(`\${${name}}`));
        if (!reported) problems.push(`${file}: placeholder \${${name}} has no local value`);
      }
      prepared.push([jobType, { definition, analysis }]);
    }
    if (problems.length > 0) throw new LocalStateMachineRefusedError(problems);

    for (const [jobType, { definition, analysis }] of prepared) {
      let machine: StateMachine;
      try {
        // Built once: validation (asl-validator) costs ~0.3 s; each run reuses it.
        machine = new StateMachine(definition, { validationOptions: { checkArn: true, checkPaths: true } });
      } catch (err) {
        problems.push(`${options.definitions[jobType]}: ${(err as Error).message}`);
        continue;
      }
      const taskResourceLocalHandlers: Record<string, (input: Json) => Promise<Json>> = {};
      for (const [stateName, placeholder] of analysis.taskFunctions) {
        const handler = options.functions[placeholder]!;
        taskResourceLocalHandlers[stateName] = (input) => this.invoke(handler, input);
      }
      const overrides: PreparedMachine['overrides'] = {
        taskResourceLocalHandlers: taskResourceLocalHandlers as NonNullable<RunOptions['overrides']>['taskResourceLocalHandlers'],
      };
      if (options.fastRetries) {
        overrides.retryIntervalOverrides = Object.fromEntries(analysis.retryStates.map((name) => [name, 0]));
      }
      this.machines.set(jobType, {
        machine,
        overrides,
        failErrors: analysis.failErrors,
        taskFunctions: analysis.taskFunctions,
        startedNames: new Set(),
      });
    }
    if (problems.length > 0) throw new LocalStateMachineRefusedError(problems);
  }

  /** Task state name -> function placeholder, per job type (what runs where). */
  taskFunctions(jobType: JobType): ReadonlyMap<string, string> {
    const prepared = this.machines.get(jobType);
    if (!prepared) throw new Error(`No state machine for job type ${jobType}`);
    return prepared.taskFunctions;
  }

  /** Executions started and not yet finished. */
  get runningCount(): number {
    return this.running.size;
  }

  /**
   * Starts an execution named `input.jobId` and resolves at once (the run goes on in the
   * background, from the next turn of the event loop). A second start of the same job is a
   * no-op, as StartExecution's unique execution names make it in AWS.
   */
  async start(input: JobExecutionInput): Promise<void> {
    if (this.stopped) throw new Error('The local Step Functions runner is stopped');
    const prepared = this.machines.get(input.jobType);
    if (!prepared) throw new Error(`No state machine for job type ${String(input.jobType)}`);
    const text = JSON.stringify(input);
    if (Buffer.byteLength(text, 'utf8') > STATE_DATA_LIMIT_BYTES) {
      throw new Error(`The execution input of job ${input.jobId} is over Step Functions' ${STATE_DATA_LIMIT_BYTES}-byte limit`);
    }
    if (prepared.startedNames.has(input.jobId)) return;
    prepared.startedNames.add(input.jobId);

    let execution: ReturnType<StateMachine['run']> | undefined;
    let aborted = false;
    const entry: RunningExecution = {
      abort: () => {
        aborted = true;
        execution?.abort();
      },
      done: Promise.resolve(),
    };
    entry.done = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        if (aborted) return;
        execution = prepared.machine.run(JSON.parse(text) as Json, { overrides: prepared.overrides });
        // The library queues every event of the run until its log is read: drain it, so a
        // long run (thousands of pages) does not hold every state's input in memory.
        void drain(execution.eventLogs);
        return execution.result.then(() => undefined);
      })
      .catch((err: unknown) => this.failed(err, input, prepared))
      .finally(() => {
        this.running.delete(entry);
      });
    this.running.add(entry);
  }

  /** Resolves when no execution is running and no task handler is in flight. */
  async idle(): Promise<void> {
    while (this.running.size > 0 || this.inFlight.size > 0) {
      await Promise.all([...[...this.running].map((e) => e.done), ...this.inFlight]);
    }
  }

  /** Aborts the running executions, waits for their in-flight handlers, and refuses new starts. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const execution of this.running) execution.abort();
    await this.idle();
  }

  private failed(err: unknown, input: JobExecutionInput, prepared: PreparedMachine): void {
    if (err instanceof ExecutionAbortedError) return;
    const cause = err instanceof ExecutionError ? err.cause : err;
    const error = cause instanceof Error ? cause.name || 'Error' : 'Error';
    const errorCause = cause instanceof Error ? cause.message : safeJson(cause);
    const failure = new LocalExecutionError(
      { jobType: input.jobType, jobId: input.jobId, error, errorCause, failState: prepared.failErrors.has(error) },
      err,
    );
    try {
      this.onError(failure, input);
    } catch (handlerError) {
      console.error('[local-step-functions] onError threw', handlerError);
    }
  }

  /** One `lambda:invoke`: the Payload goes in as JSON, the result comes back as Lambda's answer. */
  private async invoke(handler: TaskHandler, input: Json): Promise<Json> {
    const payload = isObject(input) && 'Payload' in input ? input.Payload : null;
    const call = (async () => handler(JSON.parse(JSON.stringify(payload ?? null))))();
    const tracked = call.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));

    let text: string;
    try {
      const result = await call;
      text = result === undefined ? 'null' : JSON.stringify(result);
    } catch (thrown) {
      throw toLambdaError(thrown);
    }
    if (Buffer.byteLength(text, 'utf8') > STATE_DATA_LIMIT_BYTES) {
      throw new StatesDataLimitExceededError(
        `The task's result is ${Buffer.byteLength(text, 'utf8')} bytes, over Step Functions' ${STATE_DATA_LIMIT_BYTES}-byte state data limit`,
      );
    }
    return { ExecutedVersion: '$LATEST', Payload: JSON.parse(text) as Json, StatusCode: 200 };
  }
}
