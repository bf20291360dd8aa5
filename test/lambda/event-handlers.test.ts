import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { CreateScheduleCommand, ResourceNotFoundException, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GRAPH_EVENT_SOURCE } from '../../functions/adapters/aws/eventbridge-bus';
import { EventLog } from '../../functions/core/graph/events/event-log';
import { JobStore } from '../../functions/core/jobs/job-store';
import type { Job } from '../../functions/core/jobs/model';
import { withLocalDynamo, type LocalDynamoFixture } from '../support/dynamo';
import { EVENT_BUS_NAME, STATE_MACHINE_ARNS, coldStart, jsonOf, restoreEnvironment, sampleEvent, withJsonBody, type Twins } from './support/lambda';

let dynamo: LocalDynamoFixture;
let twins: Twins;
const eventBridge = mockClient(EventBridgeClient);
const sfn = mockClient(SFNClient);
const scheduler = mockClient(SchedulerClient);
const expected = (name: string) => JSON.parse(readFileSync(new URL(`../../events/expected/${name}.json`, import.meta.url), 'utf8'));

beforeAll(async () => {
  dynamo = await withLocalDynamo();
  twins = { dynamoEndpoint: dynamo.endpoint, tableName: dynamo.tableName };
});
afterAll(async () => {
  restoreEnvironment();
  for (const mock of [eventBridge, sfn, scheduler]) mock.restore();
  await dynamo?.stop();
});
beforeEach(() => {
  for (const mock of [eventBridge, sfn, scheduler]) mock.reset();
  sfn.on(StartExecutionCommand).callsFake((input) => ({ executionArn: `${input.stateMachineArn}:${input.name}`, startDate: new Date() }));
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

describe('stream-publisher Lambda entry (DynamoDB stream batch -> EventBridge), bus only', () => {
  it('puts one entry per record event on the bus: source GRAPH_EVENT_SOURCE, detail-type = event type, detail = the event', async () => {
    eventBridge.on(PutEventsCommand).callsFake((input) => ({ FailedEntryCount: 0, Entries: input.Entries.map((_: unknown, i: number) => ({ EventId: `e${i}` })) }));
    const publisher = await coldStart('stream-publisher', twins);
    expect(await publisher(sampleEvent('dynamodb-stream-record-insert'))).toEqual({ batchItemFailures: [] });
    const entries = eventBridge.commandCalls(PutEventsCommand).flatMap((c) => c.args[0].input.Entries!);
    expect(entries.map((e) => [e.EventBusName, e.Source, e.DetailType])).toEqual([[EVENT_BUS_NAME, GRAPH_EVENT_SOURCE, 'DataRecordCreated']]);
    expect(entries.map((e) => JSON.parse(e.Detail!))).toEqual(expected('dynamodb-stream-record-insert'));
  });

  it('reports the first stream record not published when EventBridge fails, so the event source mapping retries from there', async () => {
    eventBridge.on(PutEventsCommand).rejects(new Error('EventBridge unavailable'));
    const publisher = await coldStart('stream-publisher', twins);
    const batch = sampleEvent('dynamodb-stream-record-remove');
    expect(await publisher(batch)).toEqual({ batchItemFailures: [{ itemIdentifier: batch.Records[0].dynamodb.SequenceNumber }] });
  });

  it('publishes nothing for a configuration item write (not a record)', async () => {
    const publisher = await coldStart('stream-publisher', twins);
    expect(await publisher(sampleEvent('dynamodb-stream-record-config-item'))).toEqual({ batchItemFailures: [] });
    expect(eventBridge.calls()).toHaveLength(0);
  });
});

describe('event-log Lambda entry (EventBridge rule target), table only', () => {
  it('records the event for GET /_api/v1/events, once even when EventBridge delivers it twice', async () => {
    const eventLog = await coldStart('event-log', twins);
    const event = sampleEvent('eventbridge-data-record-created');
    await eventLog(event);
    await eventLog(sampleEvent('eventbridge-data-record-created'));
    expect(await new EventLog(dynamo.store).list('acme')).toEqual([event.detail]);
  });

  it('drops (and logs) a detail that is not a data graph event', async () => {
    const eventLog = await coldStart('event-log', twins);
    const event = sampleEvent('eventbridge-data-record-created');
    event.detail = { hello: 'world' };
    await expect(eventLog(event)).resolves.toBeUndefined();
    expect(console.error).toHaveBeenCalled();
  });
});

describe('trigger-dispatcher Lambda entry (EventBridge rule target): table + StartExecution', () => {
  it('starts the callWebservice job of a trigger the event fires, once per event', async () => {
    const triggers = await coldStart('triggers', twins);
    const create = sampleEvent('http-api-triggers-create');
    const body = JSON.parse(create.body);
    body.trigger.triggerCode = 'newMovie';
    body.trigger.criteria = '`event.data.dataCollectionCode == "collection-movie" && event.data.new.startYear > 1990`';
    expect((await triggers(withJsonBody(create, body))).statusCode).toBe(201);

    const dispatcher = await coldStart('trigger-dispatcher', twins);
    const event = sampleEvent('eventbridge-data-record-created');
    const { started } = await dispatcher(event);
    expect(started).toHaveLength(1);
    const [call] = sfn.commandCalls(StartExecutionCommand);
    expect(call!.args[0].input).toMatchObject({ stateMachineArn: STATE_MACHINE_ARNS.callWebservice, name: started[0] });
    expect(JSON.parse(call!.args[0].input.input!)).toMatchObject({ jobType: 'callWebservice', customerCode: 'acme', event: event.detail });
    const job = await new JobStore(dynamo.store).get('acme', started[0]);
    expect(job).toMatchObject({ status: 'QUEUED', triggerCode: 'newMovie', eventId: event.detail.id });

    // EventBridge redelivers: the (event, trigger) claim keeps a second job from starting.
    expect(await dispatcher(sampleEvent('eventbridge-data-record-created'))).toEqual({ started: [] });
  });
});

describe('job-schedule Lambda entry (EventBridge Scheduler target): table + StartExecution', () => {
  it('runs the job definition the schedule names', async () => {
    scheduler.on(UpdateScheduleCommand).rejects(new ResourceNotFoundException({ Message: 'not found', message: 'not found', $metadata: {} }));
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:eu-west-1:123456789012:schedule/g/s' });
    const jobs = await coldStart('graph-jobs', twins);
    expect((await jobs(sampleEvent('http-api-graph-jobs-define-scheduled'))).statusCode).toBe(201);

    const schedule = await coldStart('job-schedule', twins);
    const { jobId } = await schedule(sampleEvent('scheduler-job-definition-run'));
    const call = sfn.commandCalls(StartExecutionCommand).find((c) => c.args[0].input.name === jobId);
    expect(call?.args[0].input.stateMachineArn).toBe(STATE_MACHINE_ARNS.importDataFiles);
    expect(await new JobStore(dynamo.store).get('acme', jobId)).toMatchObject({ status: 'QUEUED', jobDefinitionCode: 'nightly-orders' });
  });

  it('a schedule of a deleted definition fails (Scheduler retries, then drops it)', async () => {
    const schedule = await coldStart('job-schedule', twins);
    await expect(schedule({ customerCode: 'acme', jobDefinitionCode: 'gone' })).rejects.toThrow(/gone/);
  });
});

describe('job-reaper Lambda entry (Step Functions status change): table only', () => {
  const event = () => sampleEvent('eventbridge-sfn-execution-timed-out');
  const job = (status: Job['status']): Job => ({ jobId: event().detail.name, jobType: 'callWebservice', status, createdAt: '2024-06-07T10:15:30.000Z', params: {} });

  it('marks FAILED a job whose execution timed out, naming why; a redelivery changes nothing', async () => {
    const store = new JobStore(dynamo.store);
    await store.create('acme', job('RUNNING'));
    const reaper = await coldStart('job-reaper', twins);
    expect(await reaper(event())).toEqual({ jobId: job('RUNNING').jobId, marked: true });
    const failed = await store.get('acme', job('RUNNING').jobId);
    expect(failed).toMatchObject({ status: 'FAILED', error: "The job's execution timed out (States.Timeout)" });
    expect(failed!.finishedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await reaper(event())).toEqual({ jobId: job('RUNNING').jobId, marked: false });
  });

  it('leaves a job the state machine already ended as it is, and drops an event without the customer', async () => {
    const store = new JobStore(dynamo.store);
    const other = { ...job('SUCCEEDED'), jobId: '0190f5d2-7c1a-7a3e-9d2b-000000000001' };
    await store.create('acme', other);
    const reaper = await coldStart('job-reaper', twins);
    const ended = event();
    ended.detail.name = other.jobId;
    ended.detail.status = 'FAILED';
    expect(await reaper(ended)).toEqual({ jobId: other.jobId, marked: false });
    expect((await store.get('acme', other.jobId))!.status).toBe('SUCCEEDED');

    const tooLarge = event();
    tooLarge.detail.input = null;
    tooLarge.detail.inputDetails = { included: false };
    expect(await reaper(tooLarge)).toEqual({ jobId: tooLarge.detail.name, marked: false });
  });
});

describe('sample events are the shapes AWS sends', () => {
  it('HTTP API events carry the authorizer context the handlers read', () => {
    const event = sampleEvent('http-api-graph-records-write');
    expect(event.requestContext.authorizer.lambda).toEqual({ customerCode: 'acme', scope: 'graph' });
    expect(jsonOf({ statusCode: 200, body: event.body }).dataRecords).toHaveLength(1);
  });
});
