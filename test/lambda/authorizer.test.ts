import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCustomer } from '../../functions/core/tenancy/credentials';
import { tableNameFromOutputs } from '../../scripts/create-customer';
import { withLocalDynamo, type LocalDynamoFixture } from '../support/dynamo';
import { coldStart, restoreEnvironment, sampleEvent, type Twins } from './support/lambda';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let dynamo: LocalDynamoFixture;
let twins: Twins;
const request = () => sampleEvent('http-api-authorizer-request');
const tokenOf = (event: { headers: Record<string, string> }) => event.headers.authorization!.replace('Bearer ', '');

beforeAll(async () => {
  dynamo = await withLocalDynamo();
  twins = { dynamoEndpoint: dynamo.endpoint, tableName: dynamo.tableName };
  // The customer whose API key the sample request carries.
  await saveCustomer(dynamo.store, { customerCode: 'acme', engineToken: 'example-engine-token-Qm9vdHN0cmFwIGVuZ2luZSB0b2tlbg', apiKey: tokenOf(request()) });
});
afterAll(async () => {
  restoreEnvironment();
  await dynamo?.stop();
});

describe('authorizer Lambda entry (simple responses, AUTH_SCOPE from the stack)', () => {
  it('admits the data graph API key of the customer it belongs to, with the customer in the context', async () => {
    const graph = await coldStart('authorizer', twins, { AUTH_SCOPE: 'graph' });
    expect(await graph(request())).toEqual({ isAuthorized: true, context: { customerCode: 'acme', scope: 'graph' } });
  });

  it('refuses the API key on engine routes, another customer code, a missing header and an unknown token', async () => {
    const engine = await coldStart('authorizer', twins, { AUTH_SCOPE: 'engine' });
    expect(await engine(request())).toEqual({ isAuthorized: false });

    const graph = await coldStart('authorizer', twins, { AUTH_SCOPE: 'graph' });
    const other = request();
    other.headers['x-customer-code'] = 'globex';
    expect(await graph(other)).toEqual({ isAuthorized: false });
    const missing = request();
    delete missing.headers.authorization;
    expect(await graph(missing)).toEqual({ isAuthorized: false });
    const unknown = request();
    unknown.headers.authorization = 'Bearer not-a-token-of-anyone';
    expect(await graph(unknown)).toEqual({ isAuthorized: false });
  });

  it('fails loudly without AUTH_SCOPE (the stack always sets it)', async () => {
    const unscoped = await coldStart('authorizer', twins);
    await expect(unscoped(request())).rejects.toThrow(/AUTH_SCOPE/);
  });
});

describe('npm run create-customer', () => {
  it('mints two random 32-byte base64url tokens, stores only their hashes, and the authorizers admit them', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/create-customer.ts', '--customer', 'globex', '--table', dynamo.tableName, '--json'], {
      cwd: ROOT,
      env: { ...process.env, AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'x', AWS_SECRET_ACCESS_KEY: 'x', AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint },
    });
    const customer = JSON.parse(stdout.trim().split('\n').at(-1)!) as { customerCode: string; engineToken: string; apiKey: string; tableName: string };
    expect(customer.customerCode).toBe('globex');
    expect(customer.tableName).toBe(dynamo.tableName);
    for (const token of [customer.engineToken, customer.apiKey]) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
    expect(customer.engineToken).not.toBe(customer.apiKey);

    const stored = JSON.stringify((await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName }))).Items);
    expect(stored).not.toContain(customer.engineToken);
    expect(stored).not.toContain(customer.apiKey);

    const asGlobex = (token: string) => {
      const event = request();
      event.headers.authorization = `Bearer ${token}`;
      event.headers['x-customer-code'] = 'globex';
      return event;
    };
    const engine = await coldStart('authorizer', twins, { AUTH_SCOPE: 'engine' });
    expect(await engine(asGlobex(customer.engineToken))).toEqual({ isAuthorized: true, context: { customerCode: 'globex', scope: 'engine' } });
    expect(await engine(asGlobex(customer.apiKey))).toEqual({ isAuthorized: false });
    const graph = await coldStart('authorizer', twins, { AUTH_SCOPE: 'graph' });
    expect(await graph(asGlobex(customer.apiKey))).toEqual({ isAuthorized: true, context: { customerCode: 'globex', scope: 'graph' } });
  });

  it('refuses a customer code that could not travel in keys, and finds the table in the deploy outputs', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'scripts/create-customer.ts', '--customer', 'a#b', '--table', dynamo.tableName], { cwd: ROOT, env: { ...process.env, AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint } }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('--customer must be') });

    const dir = await mkdtemp(join(tmpdir(), 'outputs-'));
    try {
      const file = join(dir, 'cdk-outputs.json');
      await writeFile(file, JSON.stringify({ 'ExperienceGraph-Stateless': { ApiUrl: 'https://x' }, 'ExperienceGraph-Stateful': { TableName: 'ExperienceGraph-Stateful-Table-1' } }));
      expect(tableNameFromOutputs(file)).toBe('ExperienceGraph-Stateful-Table-1');
      expect(tableNameFromOutputs(join(dir, 'missing.json'))).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
