import { createHash } from 'node:crypto';
import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  type CreateScheduleCommandInput,
} from '@aws-sdk/client-scheduler';
import { toEventBridgeCron } from '../../core/jobs/definitions/eventbridge-cron';
import type { JobScheduler } from '../../ports/job-scheduler';

export interface EventBridgeJobSchedulerOptions {
  /** The schedule group of the stack (one per deployment). */
  groupName: string;
  /** The job-schedule function the schedules invoke. */
  targetArn: string;
  /** The role EventBridge Scheduler assumes to invoke it. */
  roleArn: string;
  client?: SchedulerClient;
}

/**
 * Job definition schedules as EventBridge Scheduler schedules: one per definition, in UTC,
 * invoking the job-schedule function with `{customerCode, jobDefinitionCode}`.
 */
export class EventBridgeJobScheduler implements JobScheduler {
  private readonly client: SchedulerClient;

  constructor(private readonly options: EventBridgeJobSchedulerOptions) {
    this.client = options.client ?? new SchedulerClient({});
  }

  async upsert(customerCode: string, jobDefinitionCode: string, schedule: string): Promise<void> {
    const input: CreateScheduleCommandInput = {
      Name: scheduleName(customerCode, jobDefinitionCode),
      GroupName: this.options.groupName,
      ScheduleExpression: toEventBridgeCron(schedule),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: this.options.targetArn,
        RoleArn: this.options.roleArn,
        Input: JSON.stringify({ customerCode, jobDefinitionCode }),
        RetryPolicy: { MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 3600 },
      },
      Description: `Job definition ${jobDefinitionCode} of customer ${customerCode}`.slice(0, 512),
    };
    try {
      await this.client.send(new UpdateScheduleCommand(input));
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException) && (err as Error).name !== 'ResourceNotFoundException') throw err;
      await this.client.send(new CreateScheduleCommand(input));
    }
  }

  async remove(customerCode: string, jobDefinitionCode: string): Promise<void> {
    try {
      await this.client.send(new DeleteScheduleCommand({ Name: scheduleName(customerCode, jobDefinitionCode), GroupName: this.options.groupName }));
    } catch (err) {
      if (!(err instanceof ResourceNotFoundException) && (err as Error).name !== 'ResourceNotFoundException') throw err;
    }
  }
}

/** Schedule names are at most 64 of [0-9A-Za-z-_.]: a readable prefix and a hash that keeps them unique. */
export function scheduleName(customerCode: string, jobDefinitionCode: string): string {
  const readable = `${customerCode}-${jobDefinitionCode}`.replace(/[^0-9A-Za-z_.-]/g, '_').slice(0, 47);
  const hash = createHash('sha256').update(`${customerCode}\n${jobDefinitionCode}`).digest('hex').slice(0, 16);
  return `${readable}-${hash}`;
}
