import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { JobType } from '../../functions/ports/job-runner';
import { ENV, type DataAccess, } from '../function-wiring';
import { cdkBundling } from './bundling';

/** The variable that carries the table name (set only by `useTable`, with the grant). */
export const TABLE_NAME_ENV = ENV.table;

/** What varies between functions; everything else is fixed by `BaseFunction`. */
export interface BaseFunctionProps {
  /** Path of the TypeScript entry file (it exports `handler`). */
  readonly entry: string;
  /** The exported handler function. @default 'handler' */
  readonly handler?: string;
  readonly description?: string;
  /** API Gateway HTTP APIs give up after 30 s, so API handlers stop just before. @default 29 s */
  readonly timeout?: Duration;
  /** @default 512 */
  readonly memorySize?: number;
  /** Extra variables, merged over the fixed ones. Resource names come from the `use*` methods, not here. */
  readonly environment?: Record<string, string>;
  /** Packages shipped as files beside the bundle (see constructs/bundling.ts). */
  readonly nodeModules?: readonly string[];
}

/** The job state machines, by job type. */
export type JobStateMachines = Readonly<Record<JobType, IStateMachine>>;

/** What a function needs to create and delete job definition schedules. */
export interface JobSchedules {
  readonly group: IScheduleGroup;
  /** The function the schedules invoke (job-schedule). */
  readonly target: IFunction;
  /** The role EventBridge Scheduler assumes to invoke it. */
  readonly role: IRole;
}

/**
 * The one Lambda function shape of the project: Node.js 22 on arm64, an ESM bundle built with
 * the local esbuild (never Docker) from `bundling.ts`, X-Ray tracing, JSON logs into an
 * explicit log group kept one month, source maps enabled.
 *
 * Every resource a function uses is given by one `use*` method that grants the permission and
 * sets the variable in the same call, so a function never has one without the other.
 */
export class BaseFunction extends NodejsFunction {
  /** The log group the function writes to (created with the function, one-month retention). */
  readonly functionLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: BaseFunctionProps) {
    // The log group must exist before the function (it is a constructor prop), and `this`
    // cannot be used before `super`, so it is a sibling named after the function.
    const logGroup = new LogGroup(scope, `${id}LogGroup`, {
      retention: RetentionDays.ONE_MONTH,
      // Stateless stack: deleting the function deletes its logs; they expire in a month anyway.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    super(scope, id, {
      entry: props.entry,
      handler: props.handler ?? 'handler',
      description: props.description,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(29),
      tracing: Tracing.ACTIVE,
      logGroup,
      loggingFormat: LoggingFormat.JSON,
      environment: {
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
      bundling: cdkBundling(props.nodeModules),
    });

    this.functionLogGroup = logGroup;
  }

  /** The table: data access (read, or read and write; never table management) + `TABLE_NAME`. */
  useTable(table: ITable, access: DataAccess = 'readWrite'): this {
    if (access === 'read') table.grantReadData(this);
    else table.grantReadWriteData(this);
    this.addEnvironment(ENV.table, table.tableName);
    return this;
  }

  /**
   * The files bucket: object reads and listing, plus object writes and deletes for
   * `readWrite` (what S3BlobStore calls: Get/Head, ListObjectsV2, Put and multipart, Copy,
   * Delete), named action by action rather than CDK's `s3:GetObject*`/`s3:List*` families.
   * ListBucket also makes a missing key answer 404 rather than 403. Sets `FILES_BUCKET`.
   */
  useFilesBucket(bucket: IBucket, access: DataAccess = 'readWrite'): this {
    const objectActions = access === 'read' ? ['s3:GetObject'] : ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];
    this.addToRolePolicy(new PolicyStatement({ actions: objectActions, resources: [bucket.arnForObjects('*')] }));
    this.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
    this.addEnvironment(ENV.filesBucket, bucket.bucketName);
    return this;
  }

  /** The data graph bus: `events:PutEvents` on it + `EVENT_BUS_NAME`. */
  useEventBus(bus: IEventBus): this {
    bus.grantPutEventsTo(this);
    this.addEnvironment(ENV.eventBus, bus.eventBusName);
    return this;
  }

  /** Starting jobs: `states:StartExecution` on each job state machine + `JOB_STATE_MACHINES`. */
  useJobs(stateMachines: JobStateMachines): this {
    const arns: Record<string, string> = {};
    for (const [jobType, stateMachine] of Object.entries(stateMachines)) {
      stateMachine.grantStartExecution(this);
      arns[jobType] = stateMachine.stateMachineArn;
    }
    this.addEnvironment(ENV.jobs, Stack.of(this).toJsonString(arns));
    return this;
  }

  /**
   * Job definition schedules: create, update and delete schedules of the group only, pass the
   * Scheduler role only (and only to EventBridge Scheduler) + `JOB_SCHEDULE_GROUP`,
   * `JOB_SCHEDULE_TARGET_ARN`, `JOB_SCHEDULE_ROLE_ARN`.
   */
  useJobSchedules(schedules: JobSchedules): this {
    const stack = Stack.of(this);
    const schedulesOfGroup = stack.formatArn({
      service: 'scheduler',
      resource: 'schedule',
      resourceName: `${schedules.group.scheduleGroupName}/*`,
    });
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
        resources: [schedulesOfGroup],
      }),
    );
    this.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [schedules.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
    this.addEnvironment(ENV.jobScheduleGroup, schedules.group.scheduleGroupName);
    this.addEnvironment(ENV.jobScheduleTarget, schedules.target.functionArn);
    this.addEnvironment(ENV.jobScheduleRole, schedules.role.roleArn);
    return this;
  }

}
