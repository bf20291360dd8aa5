import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLocalDynamo, type LocalDynamoFixture } from '../support/dynamo';
import { startS3rver, type S3rverInstance } from '../support/s3rver';
import { bundleFunction, shipNodeModules } from './support/bundle';
import { coldStart, functionEnvironment, restoreEnvironment, sampleEvent, type Twins } from './support/lambda';

const run = promisify(execFile);

let dynamo: LocalDynamoFixture;
let s3: S3rverInstance;
let twins: Twins;
let dir: string;

beforeAll(async () => {
  [dynamo, s3] = await Promise.all([withLocalDynamo(), startS3rver('experience-graph-files')]);
  twins = { dynamoEndpoint: dynamo.endpoint, tableName: dynamo.tableName, s3Endpoint: s3.endpoint, filesBucket: s3.bucketName };
  // Outside the repository, so only what the asset ships can be resolved from the bundle.
  dir = await mkdtemp(join(tmpdir(), 'import-worker-asset-'));
});
afterAll(async () => {
  restoreEnvironment();
  await Promise.all([dynamo?.stop(), s3?.stop(), dir ? rm(dir, { recursive: true, force: true }) : undefined]);
});

describe('the import worker bundle, laid out as its Lambda asset', () => {
  it('runs a javascript transformer with the QuickJS sandbox loaded from the shipped node_modules', async () => {
    const bundle = await bundleFunction('import-worker', dir);
    const shipped = await shipNodeModules('import-worker', dir);
    expect(shipped).toEqual(['@jitl/quickjs-ffi-types', '@jitl/quickjs-singlefile-cjs-release-sync', 'lodash', 'quickjs-emscripten-core']);

    // The collection and the file to import, through their own Lambda entries.
    expect((await (await coldStart('graph-collections', twins))(sampleEvent('http-api-graph-collections-create'))).statusCode).toBe(201);
    expect((await (await coldStart('graph-buckets', twins))(sampleEvent('http-api-graph-buckets-put-file'))).statusCode).toBe(201);

    // A fresh Node process imports the bundle and runs the state machine's chunk loop, as Lambda would.
    const runner = join(dir, 'run.mjs');
    await writeFile(
      runner,
      `const { handler } = await import(${JSON.stringify(pathToFileURL(bundle.file).href)});
       const task = JSON.parse(process.argv[2]);
       let chunk = await handler(task);
       for (let n = 0; !chunk.done && n < 10; n++) chunk = await handler({ ...task, progress: chunk.progress });
       console.log(JSON.stringify(chunk));`,
    );
    const { stdout } = await run(process.execPath, [runner, JSON.stringify(sampleEvent('sfn-task-import-chunk'))], {
      cwd: dir,
      env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...functionEnvironment('import-worker', twins) },
    });
    const chunk = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(chunk).toMatchObject({ done: true, progress: { created: 2, invalid: 0, outcome: 'processed' } });

    const records = await coldStart('graph-records', twins);
    const get = sampleEvent('http-api-graph-records-write');
    const read = await records({ ...get, routeKey: 'GET /_api/v1/collections/{collectionCode}/records/{dataRecordIdentifier}', body: undefined, pathParameters: { collectionCode: 'orders', dataRecordIdentifier: 'o-2001' } });
    expect(JSON.parse(read.body)).toMatchObject({ orderId: 'o-2001', channel: 'web' });
  });
});
