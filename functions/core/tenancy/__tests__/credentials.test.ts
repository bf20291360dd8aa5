import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withLocalDynamo, type LocalDynamoFixture } from '../../../../test/support/dynamo';
import { Authorizer } from '../authorize';
import { findCredential, hashToken, revokeCredential, saveCustomer } from '../credentials';

let dynamo: LocalDynamoFixture;
beforeAll(async () => {
  dynamo = await withLocalDynamo();
});
afterAll(() => dynamo.stop());

describe('credentials (INTERFACE.md "Authentication")', () => {
  it('are stored as hashes only, and a revoked token is refused once the cache forgets it', async () => {
    await saveCustomer(dynamo.store, { customerCode: 'acme', engineToken: 'engine-secret', apiKey: 'api-secret' });
    const stored = await dynamo.store.get({ pk: `CREDENTIAL#${hashToken('engine-secret')}`, sk: 'CREDENTIAL' });
    expect(stored).toMatchObject({ customerCode: 'acme', scope: 'engine' });
    expect(JSON.stringify(stored)).not.toContain('engine-secret');
    expect(await findCredential(dynamo.store, 'engine-secret')).toEqual({ customerCode: 'acme', scope: 'engine' });

    let now = 0;
    const authorizer = new Authorizer(dynamo.store, () => now, 1_000);
    const request = { authorization: 'Bearer engine-secret', customerCode: 'acme' };
    expect(await authorizer.authorize(request, 'engine')).toEqual({ allowed: true, customerCode: 'acme', scope: 'engine' });
    expect(await revokeCredential(dynamo.store, 'engine-secret')).toBe(true);
    expect(await revokeCredential(dynamo.store, 'engine-secret')).toBe(false);
    expect((await authorizer.authorize(request, 'engine')).allowed).toBe(true);
    now = 1_000;
    expect(await authorizer.authorize(request, 'engine')).toEqual({ allowed: false, status: 401, message: 'Invalid engine token' });
    expect((await authorizer.authorize({ authorization: 'Bearer api-secret', customerCode: 'acme' }, 'graph')).allowed).toBe(true);
  });
});
