import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { withLocalDynamo, type LocalDynamoFixture } from '../../../test/support/dynamo';
import { EventLog } from '../../core/graph/events/event-log';
import { create, type GraphEventBridgeEvent } from '../event-log';

const sample = () =>
  JSON.parse(readFileSync(new URL('../../../events/eventbridge-data-record-created.json', import.meta.url), 'utf8')) as GraphEventBridgeEvent;

let dynamo: LocalDynamoFixture;
beforeAll(async () => {
  dynamo = await withLocalDynamo();
});
afterAll(async () => {
  await dynamo?.stop();
});

describe('event log target (bus -> event log)', () => {
  it('records the event carried in detail, listable by its customer', async () => {
    const event = sample();
    await create(dynamo.store)(event);
    const log = new EventLog(dynamo.store);
    expect(await log.list('acme')).toStrictEqual([event.detail]);
    expect(await log.list('globex')).toEqual([]);
  });

  it('records a redelivered event once', async () => {
    const handler = create(dynamo.store);
    const event = sample();
    event.detail.data.customerCode = 'redelivered';
    await handler(event);
    await handler(structuredClone(event));
    expect(await new EventLog(dynamo.store).list('redelivered')).toHaveLength(1);
  });

  it('drops (and logs) a detail that is not a data graph event', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const event = sample();
      event.detail.data.customerCode = 'malformed';
      (event.detail as { id: string }).id = 'not-a-uuid';
      await create(dynamo.store)(event);
      expect(await new EventLog(dynamo.store).list('malformed')).toEqual([]);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('detail.id'));
    } finally {
      error.mockRestore();
    }
  });
});
