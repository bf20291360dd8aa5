import type { EventBridgeEvent } from 'aws-lambda';
import { JobStore } from '../core/jobs/job-store';
import type { Clock } from '../ports/clock';
import type { Store } from '../ports/store';

/**
 * The detail of a Step Functions "Step Functions Execution Status Change" event, as far as the
 * reaper reads it. `name` is the job id (StepFunctionsRunner names each execution after its
 * job); `input` is the execution input (`JobExecutionInput` as JSON), absent or null when it
 * was too large to include.
 */
export interface ExecutionStatusChange {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: string;
  input?: string | null;
  error?: string | null;
  cause?: string | null;
}

export type ExecutionStatusChangeEvent = EventBridgeEvent<'Step Functions Execution Status Change', ExecutionStatusChange>;

export interface ReapResult {
  jobId: string;
  /** True when this call moved the job to FAILED; false when it had already ended or is unknown. */
  marked: boolean;
}

/** Longest error text kept on the job (a Lambda cause can be a whole stack trace). */
const MAX_ERROR_LENGTH = 1000;

/**
 * The target of the EventBridge rule on job executions that ended FAILED, TIMED_OUT or
 * ABORTED. The state machines record a failure themselves (MarkFailed); this covers the cases
 * they cannot: an execution stopped from outside, timed out, or whose MarkFailed task failed
 * too. A job that already ended is left as it is (`JobStore.update` never reopens one), so
 * the usual FAILED event of a job the state machine already marked changes nothing.
 */
export function create(store: Store, clock: Clock): (event: ExecutionStatusChangeEvent) => Promise<ReapResult> {
  const jobs = new JobStore(store);
  return async (event) => {
    const { name: jobId, status, executionArn } = event.detail;
    const customerCode = customerCodeOf(event.detail.input);
    if (!customerCode) {
      // Without the customer the job cannot be found (its key is per customer): say so and drop.
      console.error(JSON.stringify({ level: 'ERROR', message: 'execution input has no customerCode; job not marked FAILED', executionArn, status }));
      return { jobId, marked: false };
    }
    let marked = false;
    await jobs.update(customerCode, jobId, (job) => {
      marked = true;
      return { ...job, status: 'FAILED', finishedAt: new Date(clock.now()).toISOString(), error: errorText(event.detail) };
    });
    return { jobId, marked };
  };
}

function customerCodeOf(input: string | null | undefined): string | undefined {
  if (!input) return undefined;
  try {
    const parsed = JSON.parse(input) as { customerCode?: unknown };
    return typeof parsed.customerCode === 'string' && parsed.customerCode ? parsed.customerCode : undefined;
  } catch {
    return undefined;
  }
}

function errorText(detail: ExecutionStatusChange): string {
  const what = detail.status === 'TIMED_OUT' ? 'timed out' : detail.status === 'ABORTED' ? 'was aborted' : 'failed';
  const reason = [detail.error, detail.cause].filter((part) => typeof part === 'string' && part.length > 0).join(': ');
  const text = `The job's execution ${what}${reason ? ` (${reason})` : ''}`;
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}

let ready: Promise<(event: ExecutionStatusChangeEvent) => Promise<ReapResult>> | undefined;

/** The Lambda entry: the store is built from the environment on the first invocation. */
export const handler = async (event: ExecutionStatusChangeEvent): Promise<ReapResult> => {
  ready ??= import('../adapters/aws/deps-from-env').then(({ depsFromEnv }) => {
    const deps = depsFromEnv();
    return create(deps.store, deps.clock);
  });
  return (await ready)(event);
};
