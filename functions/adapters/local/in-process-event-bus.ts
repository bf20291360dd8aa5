import type { EventBus, GraphEvent } from '../../ports/event-bus';

export type EventSubscriber = (event: GraphEvent) => Promise<void>;

/**
 * The local twin of the EventBridge bus: every published event is handed to every subscriber
 * (the event log and the trigger dispatcher), in order, before `publish` resolves, so a write
 * through the local host has its events delivered by the time its answer is sent. A failing
 * subscriber is logged and does not stop the others, as one failing EventBridge target does
 * not stop another.
 */
export class InProcessEventBus implements EventBus {
  private readonly subscribers: ((events: GraphEvent[]) => Promise<void>)[] = [];

  /** One event at a time, in order. */
  subscribe(subscriber: EventSubscriber): void {
    this.subscribers.push(async (events) => {
      for (const event of events) await deliver(() => subscriber(event), event.id);
    });
  }

  /** The events of each publish together (for subscribers that write in batches, like the event log). */
  subscribeMany(subscriber: (events: GraphEvent[]) => Promise<void>): void {
    this.subscribers.push((events) => deliver(() => subscriber(events), events[0]?.id));
  }

  async publish(events: GraphEvent[]): Promise<void> {
    if (events.length === 0) return;
    for (const subscriber of this.subscribers) await subscriber(events);
  }
}

async function deliver(send: () => Promise<void>, eventId: string | undefined): Promise<void> {
  try {
    await send();
  } catch (err) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'event subscriber failed', eventId, error: String(err) }));
  }
}
