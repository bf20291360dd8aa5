import { RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { ScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { readFileSync } from 'node:fs';
import type { JobType } from '../../functions/ports/job-runner';
import { STATE_MACHINE_FILES, TASK_FUNCTIONS, stateMachinePaths } from '../../functions/state-machines';
import type { BaseFunction, JobSchedules, JobStateMachines } from './base-function';
import { deadLetterQueue } from './dead-letter-queue';
import type { FunctionFactory } from './function-factory';
import { pascalCase } from './function-factory';
import { ASYNC_INVOKE_RETRY, RULE_TARGET_RETRY } from './graph-events';

/** A placeholder of the ASL files (`${JobWorkerFunctionArn}`), mapped to a handler by TASK_FUNCTIONS. */
export type TaskPlaceholder = keyof typeof TASK_FUNCTIONS;

/** The execution statuses after which a job that is still open is marked FAILED by the reaper. */
export const REAPED_STATUSES = ['FAILED', 'TIMED_OUT', 'ABORTED'] as const;

/** The placeholders an ASL file uses, in order of first use. */
export function placeholdersOf(aslText: string): TaskPlaceholder[] {
  const found = [...new Set([...aslText.matchAll(/\$\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!))];
  for (const name of found) {
    if (!(name in TASK_FUNCTIONS)) throw new Error(`An ASL file uses \${${name}}, which functions/state-machines.ts TASK_FUNCTIONS does not map to a function`);
  }
  return found as TaskPlaceholder[];
}

export interface JobsProps {
  readonly functions: FunctionFactory;
}

/**
 * Jobs in AWS: the task functions, one Standard state machine per job type from the same ASL
 * file the local host runs (placeholders substituted with the task functions' ARNs), the
 * job-schedule function with the EventBridge Scheduler group and role its schedules use, and
 * the reaper that marks FAILED a job whose execution ended without the state machine doing it.
 * It provides the state machines and the schedules to the function factory as soon as they
 * exist, so the functions made afterwards (HTTP, trigger dispatcher) can be given them.
 */
export class Jobs extends Construct {
  /** The task functions, by ASL placeholder. */
  readonly taskFunctions: ReadonlyMap<TaskPlaceholder, BaseFunction>;
  readonly stateMachines: JobStateMachines;
  readonly jobSchedule: BaseFunction;
  readonly scheduleGroup: ScheduleGroup;
  readonly schedulerRole: Role;
  readonly schedules: JobSchedules;
  readonly jobReaper: BaseFunction;
  readonly reaperRule: Rule;
  readonly reaperDeadLetters: Queue;

  constructor(scope: Construct, id: string, props: JobsProps) {
    super(scope, id);
    const { functions } = props;

    // Task functions: one per handler named in TASK_FUNCTIONS.
    const byHandler = new Map<string, BaseFunction>();
    const taskFunctions = new Map<TaskPlaceholder, BaseFunction>();
    for (const [placeholder, handler] of Object.entries(TASK_FUNCTIONS) as [TaskPlaceholder, (typeof TASK_FUNCTIONS)[TaskPlaceholder]][]) {
      let fn = byHandler.get(handler);
      if (!fn) {
        fn = functions.create(this, `${pascalCase(handler)}Function`, handler);
        byHandler.set(handler, fn);
      }
      taskFunctions.set(placeholder, fn);
    }
    this.taskFunctions = taskFunctions;

    // One state machine per job type, from its ASL file. Only the functions a file calls are
    // substituted and may be invoked by its role.
    const paths = stateMachinePaths();
    const stateMachines = {} as Record<JobType, StateMachine>;
    for (const jobType of Object.keys(STATE_MACHINE_FILES) as JobType[]) {
      const placeholders = placeholdersOf(readFileSync(paths[jobType], 'utf8'));
      const name = pascalCase(jobType);
      const logGroup = new LogGroup(this, `${name}Logs`, {
        // Step Functions' log delivery asks for this prefix (resource policy size limits).
        logGroupName: `/aws/vendedlogs/states/${Stack.of(this).stackName}-${jobType}`,
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      });
      const stateMachine = new StateMachine(this, `${name}StateMachine`, {
        comment: `Job type ${jobType} (${STATE_MACHINE_FILES[jobType]})`,
        definitionBody: DefinitionBody.fromFile(paths[jobType]),
        definitionSubstitutions: Object.fromEntries(placeholders.map((p) => [p, taskFunctions.get(p)!.functionArn])),
        stateMachineType: StateMachineType.STANDARD,
        tracingEnabled: true,
        // Errors only, without execution data: inputs carry job params (headers, tokens of
        // callWebservice) and record data, which do not belong in logs.
        logs: { destination: logGroup, level: LogLevel.ERROR, includeExecutionData: false },
      });
      for (const placeholder of placeholders) taskFunctions.get(placeholder)!.grantInvoke(stateMachine);
      stateMachines[jobType] = stateMachine;
    }
    this.stateMachines = stateMachines;
    functions.provideJobs(stateMachines);

    // Schedules: the function they invoke, their group, and the role Scheduler assumes.
    this.jobSchedule = functions.create(this, 'JobScheduleFunction', 'job-schedule');
    // A stateless resource: it holds only schedules that point at this stack's function and
    // role; job definitions (in the table) are the source of truth (lib/README.md).
    this.scheduleGroup = new ScheduleGroup(this, 'JobScheduleGroup', { removalPolicy: RemovalPolicy.DESTROY });
    const stack = Stack.of(this);
    this.schedulerRole = new Role(this, 'SchedulerRole', {
      description: 'Assumed by EventBridge Scheduler to run job definition schedules',
      // Only schedules of this account and group may use it (confused deputy protection;
      // Scheduler sends the schedule *group* ARN as aws:SourceArn).
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnEquals: { 'aws:SourceArn': this.scheduleGroup.scheduleGroupArn },
        },
      }),
    });
    this.jobSchedule.grantInvoke(this.schedulerRole);
    this.schedules = { group: this.scheduleGroup, target: this.jobSchedule, role: this.schedulerRole };
    functions.provideJobSchedules(this.schedules);

    // The reaper: executions of the job state machines that ended FAILED, TIMED_OUT or ABORTED.
    this.jobReaper = functions.create(this, 'JobReaperFunction', 'job-reaper');
    this.reaperDeadLetters = deadLetterQueue(this, 'JobReaperDeadLetters');
    this.reaperRule = new Rule(this, 'JobExecutionsEndedRule', {
      description: 'Job executions that failed, timed out or were aborted -> job reaper (marks the job FAILED)',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: [...REAPED_STATUSES],
          stateMachineArn: Object.values(stateMachines).map((sm) => sm.stateMachineArn),
        },
      },
    });
    this.reaperRule.addTarget(new LambdaFunction(this.jobReaper, { deadLetterQueue: this.reaperDeadLetters, ...RULE_TARGET_RETRY }));
    this.jobReaper.configureAsyncInvoke({ ...ASYNC_INVOKE_RETRY, onFailure: new SqsDestination(this.reaperDeadLetters) });
  }
}
