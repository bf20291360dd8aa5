import type { EventBridgeClient, PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { EventBus, GraphEvent } from '../../ports/event-bus';
import { lazySdk } from './lazy-sdk';

const sdk = lazySdk(() => import('@aws-sdk/client-eventbridge'));

/** The `source` of every data graph event on the bus; the rules of the event wiring match on it. */
export const GRAPH_EVENT_SOURCE = 'experience-graph.data-graph';
/** Entries per PutEvents request (EventBridge's limit). */
export const PUT_EVENTS_CHUNK = 10;
/** Size of one PutEvents request, entries summed as EventBridge counts them (its 256 KB limit). */
export const PUT_EVENTS_MAX_BYTES = 256 * 1024;

/** Some entries were still refused after every retry. */
export class PutEventsFailedError extends Error {
  readonly isRetryable = true;
  constructor(
    /** The ids of the events not published, with EventBridge's reason. */
    readonly failed: { eventId: string; errorCode?: string; errorMessage?: string }[],
    readonly attempts: number,
  ) {
    super(
      `EventBridge refused ${failed.length} event(s) after ${attempts} attempts: ` +
        failed
          .slice(0, 3)
          .map((f) => `${f.eventId} ${f.errorCode ?? ''} ${f.errorMessage ?? ''}`.trim())
          .join('; '),
    );
    this.name = 'PutEventsFailedError';
  }
}

/** An event larger than one PutEvents request may be: it can never be published as it is. */
export class EventTooLargeError extends Error {
  readonly isRetryable = false;
  constructor(
    readonly eventId: string,
    readonly bytes: number,
  ) {
    super(`event ${eventId} is ${bytes} bytes as an EventBridge entry, over the ${PUT_EVENTS_MAX_BYTES}-byte limit`);
    this.name = 'EventTooLargeError';
  }
}

export interface PutEventsRetryOptions {
  /** PutEvents calls per chunk, the first included (default 5). */
  maxAttempts?: number;
  /** First backoff in ms, doubled each retry, full jitter (default 100). */
  baseDelayMs?: number;
  /** Backoff ceiling in ms (default 2000). */
  maxDelayMs?: number;
}

export interface EventBridgeBusOptions {
  busName: string;
  client?: EventBridgeClient;
  retry?: PutEventsRetryOptions;
}

/**
 * The EventBus port over an EventBridge bus. Events go out in stream order, in PutEvents
 * requests of at most 10 entries and 256 KB; the entries a request refuses
 * (`FailedEntryCount`) are sent again with bounded, jittered backoff, and if some are still
 * refused, `publish` throws (the stream publisher then has Lambda retry from that record).
 * Each entry's detail is the whole event envelope of INTERFACE.md "Events".
 */
export class EventBridgeBus implements EventBus {
  readonly busName: string;
  private client: EventBridgeClient | undefined;
  private readonly retry: Required<PutEventsRetryOptions>;

  constructor(options: EventBridgeBusOptions) {
    if (!options.busName) throw new TypeError('EventBridgeBus needs a busName');
    this.busName = options.busName;
    this.client = options.client;
    this.retry = {
      maxAttempts: options.retry?.maxAttempts ?? 5,
      baseDelayMs: options.retry?.baseDelayMs ?? 100,
      maxDelayMs: options.retry?.maxDelayMs ?? 2000,
    };
  }

  async publish(events: GraphEvent[]): Promise<void> {
    let chunk: { event: GraphEvent; entry: PutEventsRequestEntry }[] = [];
    let chunkBytes = 0;
    for (const event of events) {
      const entry = this.entryOf(event);
      const bytes = entryBytes(entry);
      if (bytes > PUT_EVENTS_MAX_BYTES) throw new EventTooLargeError(event.id, bytes);
      if (chunk.length === PUT_EVENTS_CHUNK || chunkBytes + bytes > PUT_EVENTS_MAX_BYTES) {
        await this.putChunk(chunk);
        chunk = [];
        chunkBytes = 0;
      }
      chunk.push({ event, entry });
      chunkBytes += bytes;
    }
    if (chunk.length > 0) await this.putChunk(chunk);
  }

  private entryOf(event: GraphEvent): PutEventsRequestEntry {
    return {
      Source: GRAPH_EVENT_SOURCE,
      DetailType: event.type,
      Detail: JSON.stringify(event),
      EventBusName: this.busName,
      Time: new Date(event.time),
    };
  }

  private async putChunk(chunk: { event: GraphEvent; entry: PutEventsRequestEntry }[]): Promise<void> {
    let pending = chunk;
    for (let attempt = 1; ; attempt++) {
      const { EventBridgeClient, PutEventsCommand } = await sdk();
      this.client ??= new EventBridgeClient({});
      const out = await this.client.send(new PutEventsCommand({ Entries: pending.map((p) => p.entry) }));
      if (!out.FailedEntryCount) return;
      // Result entries match request entries by position; a failed one carries an ErrorCode.
      const results = out.Entries ?? [];
      const failed = pending
        .map((p, i) => ({ ...p, result: results[i] }))
        .filter((p) => p.result === undefined || p.result.ErrorCode !== undefined || p.result.EventId === undefined);
      if (failed.length === 0) return;
      if (attempt >= this.retry.maxAttempts) {
        throw new PutEventsFailedError(
          failed.map((f) => ({ eventId: f.event.id, errorCode: f.result?.ErrorCode, errorMessage: f.result?.ErrorMessage })),
          attempt,
        );
      }
      pending = failed.map(({ event, entry }) => ({ event, entry }));
      const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
      await sleep(Math.random() * ceiling);
    }
  }
}

/** An entry's size as EventBridge counts it toward the 256 KB of a request. */
function entryBytes(entry: PutEventsRequestEntry): number {
  let bytes = entry.Time ? 14 : 0;
  for (const text of [entry.Source, entry.DetailType, entry.Detail]) if (text) bytes += Buffer.byteLength(text, 'utf8');
  for (const resource of entry.Resources ?? []) bytes += Buffer.byteLength(resource, 'utf8');
  return bytes;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
