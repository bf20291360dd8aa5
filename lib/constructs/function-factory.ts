import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';
import { FUNCTIONS, type FunctionName } from '../function-wiring';
import { BaseFunction, type JobSchedules, type JobStateMachines } from './base-function';

/** `functions/handlers/<name>.ts`, resolved from this file so synth works from any cwd. */
export function handlerEntry(name: FunctionName): string {
  return fileURLToPath(new URL(`../../functions/handlers/${name}.ts`, import.meta.url));
}

/** `engine-query` -> `EngineQuery`, for construct ids. */
export function pascalCase(name: string): string {
  return name.replace(/(^|-)([a-z0-9])/g, (_m, _dash, c: string) => c.toUpperCase());
}

/** The resources functions may be given; the job ones exist only once the jobs are built. */
export interface FunctionResources {
  readonly table: ITable;
  readonly filesBucket: IBucket;
  readonly eventBus: IEventBus;
  jobs?: JobStateMachines;
  jobSchedules?: JobSchedules;
}

/**
 * Makes each function from its entry in `FUNCTIONS` (function-wiring.ts): size, timeout,
 * shipped packages, and one `use*` call per need, so every grant comes with its variable and
 * nothing a function does not need is granted.
 */
export class FunctionFactory {
  /** Every function made, with its name in `FUNCTIONS` (the tests check each against its needs). */
  readonly created: { readonly name: FunctionName; readonly fn: BaseFunction }[] = [];

  constructor(private readonly resources: FunctionResources) {}

  /** Makes the job state machines available to the functions made after this call. */
  provideJobs(jobs: JobStateMachines): void {
    this.resources.jobs = jobs;
  }

  /** Makes the job schedules available to the functions made after this call. */
  provideJobSchedules(jobSchedules: JobSchedules): void {
    this.resources.jobSchedules = jobSchedules;
  }

  create(scope: Construct, id: string, name: FunctionName, options: { description?: string; environment?: Record<string, string> } = {}): BaseFunction {
    const spec = FUNCTIONS[name];
    const fn = new BaseFunction(scope, id, {
      entry: handlerEntry(name),
      description: options.description ?? `${name}: ${spec.description}`,
      memorySize: spec.memorySize,
      timeout: spec.timeoutSeconds === undefined ? undefined : Duration.seconds(spec.timeoutSeconds),
      nodeModules: spec.nodeModules,
      environment: options.environment,
    });
    const { needs } = spec;
    const { table, filesBucket, eventBus, jobs, jobSchedules } = this.resources;
    if (needs.table) fn.useTable(table, needs.table);
    if (needs.filesBucket) fn.useFilesBucket(filesBucket, needs.filesBucket);
    if (needs.eventBus) fn.useEventBus(eventBus);
    if (needs.startsJobs) fn.useJobs(required(jobs, name, 'the job state machines'));
    if (needs.schedulesJobs) fn.useJobSchedules(required(jobSchedules, name, 'the job schedules'));
    this.created.push({ name, fn });
    return fn;
  }
}

function required<T>(value: T | undefined, name: string, what: string): T {
  if (value === undefined) throw new Error(`Function ${name} needs ${what}, which are not built yet: create it after them`);
  return value;
}
