import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../functions/core/jobs/job-store';
import { withLocalDynamo, type LocalDynamoFixture } from '../support/dynamo';
import { s3rverClient, startS3rver, type S3rverInstance } from '../support/s3rver';
import { startStubUpstream, type StubUpstream } from '../support/stub-upstream';
import { coldStart, jsonOf, restoreEnvironment, sampleEvent, type Twins } from './support/lambda';

let dynamo: LocalDynamoFixture;
let s3: S3rverInstance;
let stub: StubUpstream;
let twins: Twins;
const JOB_ID = sampleEvent('sfn-task-job-start').jobId as string;
const jobs = () => new JobStore(dynamo.store);

async function keys(prefix: string): Promise<string[]> {
  const answer = await s3rverClient(s3.endpoint).send(new ListObjectsV2Command({ Bucket: s3.bucketName, Prefix: prefix }));
  return (answer.Contents ?? []).map((o) => o.Key!);
}

beforeAll(async () => {
  [dynamo, s3, stub] = await Promise.all([withLocalDynamo(), startS3rver('experience-graph-files'), startStubUpstream()]);
  twins = { dynamoEndpoint: dynamo.endpoint, tableName: dynamo.tableName, s3Endpoint: s3.endpoint, filesBucket: s3.bucketName };
  await jobs().create('acme', { jobId: JOB_ID, jobType: 'callWebservice', status: 'QUEUED', createdAt: '2024-06-07T10:15:30.000Z', params: {} });
});
afterAll(async () => {
  restoreEnvironment();
  await Promise.all([dynamo?.stop(), s3?.stop(), stub?.stop()]);
});

describe('job-worker Lambda entry (state machine tasks): table, files, outbound HTTP', () => {
  it('job.start moves the job to RUNNING', async () => {
    const worker = await coldStart('job-worker', twins);
    expect(await worker(sampleEvent('sfn-task-job-start'))).toEqual({});
    expect(await jobs().get('acme', JOB_ID)).toMatchObject({ status: 'RUNNING', startedAt: expect.any(String) });
  });

  it('callWebservice.call sends the request, expressions evaluated over the event, and answers the status', async () => {
    stub.on('/hooks/orders', { status: 204, text: '' });
    const worker = await coldStart('job-worker', twins);
    const task = sampleEvent('sfn-task-call-webservice');
    task.params.url = `${stub.url}/hooks/orders`;
    expect(await worker(task)).toEqual({ status: 204 });
    const call = stub.requests.find((r) => r.path === '/hooks/orders')!;
    expect(call.method).toBe('POST');
    expect(JSON.parse(call.body)).toEqual({ order: 'o-1001' });
  });

  it('download.page fetches the page and writes the file to the files bucket (S3)', async () => {
    stub.on('/api/collections/collection-movie', { body: [{ id: 'tt1' }, { id: 'tt2' }] });
    const buckets = await coldStart('graph-buckets', twins);
    expect((await buckets(sampleEvent('http-api-graph-buckets-create'))).statusCode).toBe(201);
    const worker = await coldStart('job-worker', twins);
    const task = sampleEvent('sfn-task-download-page');
    task.params.initialRequest.url = `${stub.url}/api/collections/collection-movie`;
    const page = await worker(task);
    expect(page).toMatchObject({ hasMore: false });
    expect(await keys('acme/downloads/')).toEqual(['acme/downloads/movies.jsonl']);
  });

  it('job.finish records the result; a task of the import worker is refused', async () => {
    const worker = await coldStart('job-worker', twins);
    expect(await worker(sampleEvent('sfn-task-job-finish-succeeded'))).toEqual({});
    expect(await jobs().get('acme', JOB_ID)).toMatchObject({ status: 'SUCCEEDED', result: { status: 204 } });
    await expect(worker(sampleEvent('sfn-task-import-list'))).rejects.toThrow(/does not run task import.list/);
  });
});

describe('import-worker Lambda entry (state machine tasks): table, files, the QuickJS sandbox', () => {
  it('import.list finds the file; import.chunk imports it through the transformer and moves it to processed', async () => {
    // The collection and the file, through their own Lambda entries.
    const collections = await coldStart('graph-collections', twins);
    expect((await collections(sampleEvent('http-api-graph-collections-create'))).statusCode).toBe(201);
    const buckets = await coldStart('graph-buckets', twins);
    expect((await buckets(sampleEvent('http-api-graph-buckets-put-file'))).statusCode).toBe(201);

    const importer = await coldStart('import-worker', twins);
    expect(await importer(sampleEvent('sfn-task-import-list'))).toEqual({ files: ['orders-2024-06-07.jsonl'], skipped: [] });
    // The state machine's loop: ImportChunk until done, the progress carried to the next chunk.
    const task = sampleEvent('sfn-task-import-chunk');
    let chunk = await importer(task);
    for (let n = 0; !chunk.done && n < 10; n++) chunk = await importer({ ...task, progress: chunk.progress });
    expect(chunk).toMatchObject({ done: true, progress: { created: 2, invalid: 0, outcome: 'processed' } });
    expect(await keys('acme/processed/')).toEqual(['acme/processed/orders-2024-06-07.jsonl']);
    expect(await keys('acme/incoming/')).toEqual([]);

    const records = await coldStart('graph-records', twins);
    const get = sampleEvent('http-api-graph-records-write');
    const read = await records({ ...get, routeKey: 'GET /_api/v1/collections/{collectionCode}/records/{dataRecordIdentifier}', body: undefined, pathParameters: { collectionCode: 'orders', dataRecordIdentifier: 'o-2002' } });
    expect(jsonOf(read)).toMatchObject({ orderId: 'o-2002', total: 340, channel: 'web' });
  });

  it('refuses a task of the job worker', async () => {
    const importer = await coldStart('import-worker', twins);
    await expect(importer(sampleEvent('sfn-task-job-start'))).rejects.toThrow(/does not run task job.start/);
  });
});
