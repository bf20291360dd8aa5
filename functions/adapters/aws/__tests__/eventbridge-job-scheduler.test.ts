import { CreateScheduleCommand, DeleteScheduleCommand, ResourceNotFoundException, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventBridgeJobScheduler, scheduleName } from '../eventbridge-job-scheduler';

const mock = mockClient(SchedulerClient);
const scheduler = new EventBridgeJobScheduler({ groupName: 'graph-jobs', targetArn: 'arn:aws:lambda:eu-west-1:1:function:job-schedule', roleArn: 'arn:aws:iam::1:role/scheduler', client: new SchedulerClient({ region: 'eu-west-1' }) });

beforeEach(() => mock.reset());

describe('EventBridge Scheduler adapter of job definition schedules', () => {
  it('creates the schedule when it does not exist yet, with the cron in EventBridge form and the definition as input', async () => {
    mock.on(UpdateScheduleCommand).rejects(new ResourceNotFoundException({ message: 'no schedule', Message: 'no schedule', $metadata: {} }));
    mock.on(CreateScheduleCommand).resolves({});
    await scheduler.upsert('acme', 'nightly', '0 2 * * *');
    const create = mock.commandCalls(CreateScheduleCommand)[0].args[0].input;
    expect(create).toMatchObject({
      Name: scheduleName('acme', 'nightly'),
      GroupName: 'graph-jobs',
      ScheduleExpression: 'cron(0 2 * * ? *)',
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: { Arn: 'arn:aws:lambda:eu-west-1:1:function:job-schedule', RoleArn: 'arn:aws:iam::1:role/scheduler', Input: '{"customerCode":"acme","jobDefinitionCode":"nightly"}' },
    });
  });

  it('updates an existing schedule in place, and removing an absent one is not an error', async () => {
    mock.on(UpdateScheduleCommand).resolves({});
    await scheduler.upsert('acme', 'nightly', '*/5 * * * *');
    expect(mock.commandCalls(CreateScheduleCommand)).toHaveLength(0);
    mock.on(DeleteScheduleCommand).rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    await expect(scheduler.remove('acme', 'nightly')).resolves.toBeUndefined();
  });

  it('schedule names fit EventBridge rules and stay unique for long or odd codes', () => {
    const a = scheduleName('customer with spaces', 'x'.repeat(100));
    const b = scheduleName('customer with spaces', `${'x'.repeat(99)}y`);
    for (const name of [a, b]) expect(name).toMatch(/^[0-9A-Za-z_.-]{1,64}$/);
    expect(a).not.toBe(b);
  });
});
