import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import type { GraphEvent } from '../../../ports/event-bus';
import { EventBridgeBus, EventTooLargeError, GRAPH_EVENT_SOURCE, PutEventsFailedError } from '../eventbridge-bus';

const client = new EventBridgeClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
const eventBridge = mockClient(client);
beforeEach(() => eventBridge.reset());

const fast = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 };
const bus = () => new EventBridgeBus({ busName: 'graph-events', client, retry: fast });

function event(n: number, extra: Record<string, unknown> = {}): GraphEvent {
  return {
    id: `00000000-0000-8000-8000-${String(n).padStart(12, '0')}`,
    type: 'DataRecordCreated',
    source: '',
    time: new Date(Date.UTC(2024, 5, 7, 10, 15, 30, n)).toISOString(),
    data: { customerCode: 'acme', dataCollectionCode: 'movies', new: { dataRecordIdentifier: `r${n}`, '@iat': n, '@uat': n, ...extra } },
  };
}
const ok = (n: number) => ({ FailedEntryCount: 0, Entries: Array.from({ length: n }, (_, i) => ({ EventId: `eb-${i}` })) });
const inputs = () => eventBridge.commandCalls(PutEventsCommand).map((call) => call.args[0].input);

describe('EventBridgeBus', () => {
  it('sends each event as one entry: source, detail-type = event type, detail = the whole envelope, bus, time', async () => {
    eventBridge.on(PutEventsCommand).resolves(ok(1));
    const e = event(1);
    await bus().publish([e]);
    expect(inputs()).toEqual([
      {
        Entries: [
          {
            Source: 'experience-graph.data-graph',
            DetailType: 'DataRecordCreated',
            Detail: JSON.stringify(e),
            EventBusName: 'graph-events',
            Time: new Date('2024-06-07T10:15:30.001Z'),
          },
        ],
      },
    ]);
    expect(GRAPH_EVENT_SOURCE).toBe('experience-graph.data-graph');
    expect(JSON.parse(inputs()[0]!.Entries![0]!.Detail!)).toStrictEqual(e);
  });

  it('sends nothing for no events', async () => {
    await bus().publish([]);
    expect(inputs()).toEqual([]);
  });

  it('sends at most 10 entries per request, in order', async () => {
    eventBridge.on(PutEventsCommand).callsFake((input) => ok(input.Entries.length));
    const events = Array.from({ length: 23 }, (_, i) => event(i));
    await bus().publish(events);
    expect(inputs().map((i) => i.Entries!.length)).toEqual([10, 10, 3]);
    expect(inputs().flatMap((i) => i.Entries!.map((e) => JSON.parse(e.Detail!).id))).toEqual(events.map((e) => e.id));
  });

  it('keeps each request within 256 KB', async () => {
    eventBridge.on(PutEventsCommand).callsFake((input) => ok(input.Entries.length));
    const events = Array.from({ length: 6 }, (_, i) => event(i, { text: 'x'.repeat(100 * 1024) }));
    await bus().publish(events);
    expect(inputs().map((i) => i.Entries!.length)).toEqual([2, 2, 2]);
  });

  it('refuses an event too large for EventBridge before sending anything', async () => {
    const err = await bus()
      .publish([event(1), event(2, { text: 'x'.repeat(256 * 1024) })])
      .catch((e) => e);
    expect(err).toBeInstanceOf(EventTooLargeError);
    expect(err.eventId).toBe(event(2).id);
    expect(err.isRetryable).toBe(false);
    expect(inputs()).toEqual([]);
  });

  it('sends again only the entries a request refused, then goes on with the next chunk', async () => {
    eventBridge
      .on(PutEventsCommand)
      .resolvesOnce({
        FailedEntryCount: 2,
        Entries: [
          { EventId: 'a' },
          { ErrorCode: 'ThrottlingException', ErrorMessage: 'Rate exceeded' },
          { EventId: 'c' },
          { ErrorCode: 'InternalFailure', ErrorMessage: 'oops' },
          ...Array.from({ length: 6 }, () => ({ EventId: 'x' })),
        ],
      })
      .resolves(ok(10));
    const events = Array.from({ length: 12 }, (_, i) => event(i));
    await bus().publish(events);
    const ids = inputs().map((i) => i.Entries!.map((e) => JSON.parse(e.Detail!).id));
    expect(ids).toEqual([events.slice(0, 10).map((e) => e.id), [events[1]!.id, events[3]!.id], events.slice(10).map((e) => e.id)]);
  });

  it('throws after the last attempt still has refused entries, naming them', async () => {
    eventBridge.on(PutEventsCommand).callsFake((input) => ({
      FailedEntryCount: 1,
      Entries: input.Entries.map((_: unknown, i: number) => (i === 0 ? { ErrorCode: 'InternalFailure', ErrorMessage: 'oops' } : { EventId: `ok-${i}` })),
    }));
    const err = await bus()
      .publish([event(1), event(2), event(3)])
      .catch((e) => e);
    expect(err).toBeInstanceOf(PutEventsFailedError);
    expect(err.attempts).toBe(3);
    expect(err.failed).toEqual([{ eventId: event(1).id, errorCode: 'InternalFailure', errorMessage: 'oops' }]);
    expect(inputs().map((i) => i.Entries!.length)).toEqual([3, 1, 1]);
  });

  it('does not go on to the next chunk after a chunk failed', async () => {
    eventBridge.on(PutEventsCommand).resolves({ FailedEntryCount: 10, Entries: Array.from({ length: 10 }, () => ({ ErrorCode: 'InternalFailure' })) });
    await expect(bus().publish(Array.from({ length: 15 }, (_, i) => event(i)))).rejects.toBeInstanceOf(PutEventsFailedError);
    expect(inputs().every((i) => i.Entries!.length === 10)).toBe(true);
    expect(inputs()).toHaveLength(3);
  });

  it('lets an error of the request itself through (the SDK has retried it already)', async () => {
    eventBridge.on(PutEventsCommand).rejects(new Error('AccessDenied'));
    await expect(bus().publish([event(1)])).rejects.toThrow('AccessDenied');
  });

  it('needs a bus name', () => {
    expect(() => new EventBridgeBus({ busName: '', client })).toThrow(TypeError);
  });
});
