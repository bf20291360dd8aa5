import { createHash } from 'node:crypto';
import type { CreateScheduleCommandInput, SchedulerClient } from '@aws-sdk/client-scheduler';
import { toEventBridgeCron } from '../../core/jobs/definitions/eventbridge-cron';
import type { JobScheduler } from '../../ports/job-scheduler';
import { lazySdk } from './lazy-sdk';

const sdk = lazySdk(() => import('@aws-sdk/client-scheduler'));

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
  private client: SchedulerClient | undefined;

  constructor(private readonly options: EventBridgeJobSchedulerOptions) {
    this.client = options.client;
  }

  private async sdk() {
    const module = await sdk();
    this.client ??= new module.SchedulerClient({});
    return { ...module, client: this.client };
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
    const { client, UpdateScheduleCommand, CreateScheduleCommand } = await this.sdk();
    try {
      await client.send(new UpdateScheduleCommand(input));
    } catch (err) {
      if ((err as Error).name !== 'ResourceNotFoundException') throw err;
      await client.send(new CreateScheduleCommand(input));
    }
  }

  async remove(customerCode: string, jobDefinitionCode: string): Promise<void> {
    const { client, DeleteScheduleCommand } = await this.sdk();
    try {
      await client.send(new DeleteScheduleCommand({ Name: scheduleName(customerCode, jobDefinitionCode), GroupName: this.options.groupName }));
    } catch (err) {
      if ((err as Error).name !== 'ResourceNotFoundException') throw err;
    }
  }
}

/** Schedule names are at most 64 of [0-9A-Za-z-_.]: a readable prefix and a hash that keeps them unique. */
export function scheduleName(customerCode: string, jobDefinitionCode: string): string {
  const readable = `${customerCode}-${jobDefinitionCode}`.replace(/[^0-9A-Za-z_.-]/g, '_').slice(0, 47);
  const hash = createHash('sha256').update(`${customerCode}\n${jobDefinitionCode}`).digest('hex').slice(0, 16);
  return `${readable}-${hash}`;
}
