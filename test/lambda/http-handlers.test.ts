import { GetObjectCommand } from '@aws-sdk/client-s3';
import { CreateScheduleCommand, ResourceNotFoundException, SchedulerClient, UpdateScheduleCommand } from '@aws-sdk/client-scheduler';
import { SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EventLog } from '../../functions/core/graph/events/event-log';
import { ROUTES } from '../../functions/routes';
import { withLocalDynamo, type LocalDynamoFixture } from '../support/dynamo';
import { s3rverClient, startS3rver, type S3rverInstance } from '../support/s3rver';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';
import { JOB_SCHEDULES, STATE_MACHINE_ARNS, coldStart, jsonOf, restoreEnvironment, sampleEvent, withJsonBody, type Twins } from './support/lambda';

let dynamo: LocalDynamoFixture;
let s3: S3rverInstance;
let stub: StubUpstream;
let twins: Twins;
const sfn = mockClient(SFNClient);
const scheduler = mockClient(SchedulerClient);

beforeAll(async () => {
  [dynamo, s3, stub] = await Promise.all([withLocalDynamo(), startS3rver('experience-graph-files'), startStubUpstream()]);
  twins = { dynamoEndpoint: dynamo.endpoint, tableName: dynamo.tableName, s3Endpoint: s3.endpoint, filesBucket: s3.bucketName };
});
afterAll(async () => {
  restoreEnvironment();
  sfn.restore();
  scheduler.restore();
  await Promise.all([dynamo?.stop(), s3?.stop(), stub?.stop()]);
});
beforeEach(() => {
  sfn.reset();
  scheduler.reset();
});

describe('HTTP handlers through their Lambda entry, with API Gateway v2 events and the stack environment', () => {
  it('covers every handler of the route table', () => {
    const tested = ['health', 'sample-data', 'engine-config', 'engine-query', 'graph-collections', 'graph-records', 'graph-buckets', 'graph-events', 'graph-jobs', 'triggers'];
    expect(new Set(ROUTES.map((r) => r.handler))).toEqual(new Set(tested));
  });

  it('health answers 200 with no variable at all', async () => {
    const health = await coldStart('health', twins);
    const result = await health(sampleEvent('http-api-health'));
    expect(result).toMatchObject({ statusCode: 200 });
    expect(jsonOf(result)).toEqual({ status: 'ok' });
  });

  it('sample-data answers the movie of `_id` from the bundled dataset', async () => {
    const sampleData = await coldStart('sample-data', twins);
    const result = await sampleData(sampleEvent('http-api-sample-data'));
    expect(result.statusCode).toBe(200);
    expect(jsonOf(result).map((m: { id: string }) => m.id)).toEqual(['tt0084112']);
  });

  it('engine-config stores a connection and a component; engine-query (table read only) runs the component against the web service', async () => {
    stub.on('/api/collections/collection-movie', (req) => ({ body: [{ id: req.query.get('_id'), primaryTitle: 'Midnight in Lisbon' }] }));
    const config = await coldStart('engine-config', twins);
    const connection = sampleEvent('http-api-engine-config-put-connection');
    const body = JSON.parse(connection.body);
    body.config.baseUrl = stub.url;
    expect((await config(withJsonBody(connection, body))).statusCode).toBe(200);
    expect((await config(sampleEvent('http-api-engine-config-put-component'))).statusCode).toBe(200);

    const query = await coldStart('engine-query', twins);
    const result = await query(sampleEvent('http-api-engine-query-components'));
    expect(result.statusCode).toBe(200);
    expect(jsonOf(result).components.movie).toEqual({ status: 'VALID', response: [{ id: 'tt0084112', primaryTitle: 'Midnight in Lisbon' }] });
  });

  it('graph-collections creates a collection; graph-records writes a record into it', async () => {
    const collections = await coldStart('graph-collections', twins);
    const created = await collections(sampleEvent('http-api-graph-collections-create'));
    expect(created.statusCode).toBe(201);
    const records = await coldStart('graph-records', twins);
    const written = await records(sampleEvent('http-api-graph-records-write'));
    expect(written.statusCode).toBe(200);
    expect(jsonOf(written).data[0].new).toMatchObject({ dataRecordIdentifier: 'o-1001', orderId: 'o-1001', total: 250 });
  });

  it('graph-buckets writes a file to S3 (s3rver through AWS_ENDPOINT_URL_S3) and reads it back', async () => {
    const buckets = await coldStart('graph-buckets', twins);
    const put = sampleEvent('http-api-graph-buckets-put-file');
    const result = await buckets(put);
    expect(result.statusCode).toBe(201);
    expect(jsonOf(result)).toMatchObject({ filename: 'orders-2024-06-07.jsonl', size: Buffer.byteLength(put.body) });

    const object = await s3rverClient(s3.endpoint).send(new GetObjectCommand({ Bucket: s3.bucketName, Key: 'acme/incoming/orders-2024-06-07.jsonl' }));
    expect(await object.Body!.transformToString()).toBe(put.body);

    const get = { ...put, routeKey: put.routeKey.replace('PUT', 'GET'), body: undefined, requestContext: { ...put.requestContext, http: { ...put.requestContext.http, method: 'GET' } } };
    const read = await buckets(get);
    expect(read).toMatchObject({ statusCode: 200, isBase64Encoded: true });
    expect(Buffer.from(read.body, 'base64').toString('utf8')).toBe(put.body);
  });

  it('graph-events (table read only) lists what the event log recorded', async () => {
    const detail = sampleEvent('eventbridge-data-record-created').detail;
    await new EventLog(dynamo.store).record(detail);
    const events = await coldStart('graph-events', twins);
    const result = await events(sampleEvent('http-api-graph-events-list'));
    expect(result.statusCode).toBe(200);
    expect(jsonOf(result).data).toEqual([detail]);
  });

  it('graph-jobs starts an import: the job is QUEUED and Step Functions starts the import state machine, execution named after the job', async () => {
    sfn.on(StartExecutionCommand).resolves({ executionArn: 'arn:aws:states:eu-west-1:123456789012:execution:ImportDataFiles:x', startDate: new Date() });
    const jobs = await coldStart('graph-jobs', twins);
    const result = await jobs(sampleEvent('http-api-graph-jobs-import'));
    expect(result.statusCode).toBe(202);
    const { jobId } = jsonOf(result);
    const [call] = sfn.commandCalls(StartExecutionCommand);
    expect(call!.args[0].input).toMatchObject({ stateMachineArn: STATE_MACHINE_ARNS.importDataFiles, name: jobId });
    expect(JSON.parse(call!.args[0].input.input!)).toMatchObject({ jobId, customerCode: 'acme', jobType: 'importDataFiles', params: { sourceBucketCode: 'incoming' } });

    const get = sampleEvent('http-api-graph-jobs-import');
    const state = await jobs({ ...get, routeKey: 'GET /_api/v1/jobs/{jobId}', body: undefined, pathParameters: { jobId } });
    expect(jsonOf(state)).toMatchObject({ jobId, status: 'QUEUED', jobType: 'importDataFiles' });
  });

  it('graph-jobs defines a scheduled job definition: a schedule in the group, invoking the target through the role', async () => {
    scheduler.on(UpdateScheduleCommand).rejects(new ResourceNotFoundException({ Message: 'Schedule not found', message: 'Schedule not found', $metadata: {} }));
    scheduler.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:aws:scheduler:eu-west-1:123456789012:schedule/x/y' });
    const jobs = await coldStart('graph-jobs', twins);
    const result = await jobs(sampleEvent('http-api-graph-jobs-define-scheduled'));
    expect(result.statusCode).toBe(201);
    const [create] = scheduler.commandCalls(CreateScheduleCommand);
    expect(create!.args[0].input).toMatchObject({
      GroupName: JOB_SCHEDULES.group,
      ScheduleExpression: 'cron(0 2 * * ? *)',
      Target: { Arn: JOB_SCHEDULES.target, RoleArn: JOB_SCHEDULES.role, Input: JSON.stringify({ customerCode: 'acme', jobDefinitionCode: 'nightly-orders' }) },
    });
  });

  it('triggers creates a trigger with only the table: the job adapters it never calls are never built', async () => {
    const triggers = await coldStart('triggers', twins);
    const result = await triggers(sampleEvent('http-api-triggers-create'));
    expect(result.statusCode).toBe(201);
    expect(jsonOf(result)).toMatchObject({ triggerCode: 'bigOrder', eventType: 'DataRecordCreated' });
    expect(process.env.JOB_STATE_MACHINES).toBeUndefined();
    expect(process.env.FILES_BUCKET).toBeUndefined();
    expect(sfn.calls()).toHaveLength(0);
  });
});
