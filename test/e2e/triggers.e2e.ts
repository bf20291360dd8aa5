import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN, call, eventually, graph, target } from './support/target';

const collectionCode = `e2e-signups-${RUN}`;
const triggerCode = `e2e-welcome-${RUN}`;

beforeAll(async () => {
  const res = await graph('POST', '/collections', { collectionCode, name: 'E2E sign-ups', description: `e2e run ${RUN}`, dataRecordIdentifierProperty: 'userId' });
  expect(res.status, res.text).toBe(201);
});
afterAll(async () => {
  await call('DELETE', `/triggers/${triggerCode}`, { auth: 'graph' });
  await graph('DELETE', `/collections/${collectionCode}`);
});

describe('a trigger runs its job when a record event matches (stream -> bus -> dispatcher -> state machine)', () => {
  it('a callWebservice job to the deployment health endpoint SUCCEEDED, started by the record event', async () => {
    const created = await call('POST', '/triggers', {
      auth: 'graph',
      body: {
        trigger: {
          triggerCode,
          name: 'Welcome',
          description: 'Calls the health endpoint for every premium sign-up',
          eventType: 'DataRecordCreated',
          criteria: `\`event.data.dataCollectionCode == "${collectionCode}" && event.data.new.plan == "premium"\``,
          // The deployment cannot reach a stub on this machine; its own public endpoint it can.
          job: { jobType: 'callWebservice', params: { url: `${target().apiUrl}/health`, method: 'GET', searchParams: { user: '`event.data.new.userId`' } } },
        },
      },
    });
    expect(created.status, created.text).toBe(201);

    const written = await graph('POST', `/collections/${collectionCode}/records`, {
      dataRecords: [
        { userId: 'u-free', plan: 'free' },
        { userId: 'u-premium', plan: 'premium' },
      ],
    });
    expect(written.status, written.text).toBe(200);

    const jobs = await eventually(
      async (): Promise<{ status: string; eventId?: string }[]> => ((await graph('GET', '/jobs?limit=100')).body?.data ?? []).filter((j: { triggerCode?: string }) => j.triggerCode === triggerCode),
      (list: { status: string; eventId?: string }[]) => list.length > 0 && list.every((j) => j.status === 'SUCCEEDED' || j.status === 'FAILED'),
      `the job of trigger ${triggerCode}`,
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0], JSON.stringify(jobs[0])).toMatchObject({ jobType: 'callWebservice', status: 'SUCCEEDED', result: { status: 200 } });
    expect(jobs[0].eventId).toMatch(/^[0-9a-f-]{36}$/);

    const trigger = await call('GET', `/triggers/${triggerCode}`, { auth: 'graph' });
    expect(trigger.body.lastError).toBeUndefined();
  });
});
