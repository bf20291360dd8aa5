import { readFileSync } from 'node:fs';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventBus, GraphEvent } from '../../ports/event-bus';
import { create } from '../stream-publisher';

const readJson = (path: string) => JSON.parse(readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8'));
const sample = (name: string) => readJson(`events/dynamodb-stream-record-${name}.json`) as DynamoDBStreamEvent;
const expected = (name: string) => readJson(`events/expected/dynamodb-stream-record-${name}.json`) as GraphEvent[];

class RecordingBus implements EventBus {
  readonly published: GraphEvent[] = [];
  calls = 0;
  constructor(private readonly failOnCall?: number) {}
  async publish(events: GraphEvent[]): Promise<void> {
    if (++this.calls === this.failOnCall) throw new Error('EventBridge unavailable');
    this.published.push(...events);
  }
}

/** One stream batch of n copies of the insert sample, each its own stream record. */
function manyInserts(n: number): DynamoDBStreamEvent {
  const [record] = sample('insert').Records;
  return {
    Records: Array.from({ length: n }, (_, i) => ({
      ...structuredClone(record!),
      eventID: `event-${i}`,
      dynamodb: { ...structuredClone(record!.dynamodb!), SequenceNumber: String(5000 + i) },
    })),
  };
}

describe('stream publisher (DynamoDB stream -> bus)', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  for (const name of ['insert', 'modify', 'remove', 'config-item']) {
    it(`publishes the events of dynamodb-stream-record-${name}.json and reports no failure`, async () => {
      const bus = new RecordingBus();
      expect(await create(bus)(sample(name))).toEqual({ batchItemFailures: [] });
      expect(bus.published).toEqual(expected(name));
      expect(bus.calls).toBe(name === 'config-item' ? 0 : 1);
    });
  }

  it('a redelivered batch publishes the same event ids', async () => {
    const bus = new RecordingBus();
    await create(bus)(sample('modify'));
    await create(bus)(sample('modify'));
    const ids = bus.published.map((e) => e.id);
    expect(ids.slice(2)).toEqual(ids.slice(0, 2));
  });

  it('on a failed publish reports the SequenceNumber of the first stream record not published, so Lambda retries from there', async () => {
    const bus = new RecordingBus(2);
    const result = await create(bus)(manyInserts(25));
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: '5010' }] });
    expect(bus.published).toHaveLength(10);
  });

  it('reports the first record when the first publish fails', async () => {
    const bus = new RecordingBus(1);
    expect(await create(bus)(sample('remove'))).toEqual({ batchItemFailures: [{ itemIdentifier: '1405700000000002063283544' }] });
  });

  it('fails the whole batch on a stream it cannot read', async () => {
    const batch = sample('insert');
    batch.Records[0]!.dynamodb!.StreamViewType = 'KEYS_ONLY';
    await expect(create(new RecordingBus())(batch)).rejects.toThrow(/NEW_AND_OLD_IMAGES/);
  });
});

describe('stream publisher Lambda entry', () => {
  const saved = { TABLE_NAME: process.env.TABLE_NAME, EVENT_BUS_NAME: process.env.EVENT_BUS_NAME, FILES_BUCKET: process.env.FILES_BUCKET };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    vi.resetModules();
  });

  it('builds the EventBridge bus from EVENT_BUS_NAME and puts the sample events on it', async () => {
    process.env.TABLE_NAME = 'records';
    process.env.EVENT_BUS_NAME = 'graph-bus';
    process.env.FILES_BUCKET = 'files';
    process.env.AWS_REGION ??= 'eu-west-1';
    const eventBridge = mockClient(EventBridgeClient);
    eventBridge.on(PutEventsCommand).callsFake((input) => ({ FailedEntryCount: 0, Entries: input.Entries.map(() => ({ EventId: 'x' })) }));
    try {
      const { handler } = await import('../stream-publisher');
      const result = await handler(sample('modify'), {} as Context, () => undefined);
      expect(result).toEqual({ batchItemFailures: [] });
      const entries = eventBridge.commandCalls(PutEventsCommand).flatMap((c) => c.args[0].input.Entries!);
      expect(entries.map((e) => [e.EventBusName, e.Source, e.DetailType])).toEqual([
        ['graph-bus', 'experience-graph.data-graph', 'DataRecordUpdated'],
        ['graph-bus', 'experience-graph.data-graph', 'DataRecordUpdated'],
      ]);
      expect(entries.map((e) => JSON.parse(e.Detail!))).toEqual(expected('modify'));
    } finally {
      eventBridge.restore();
    }
  });
});
