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
  private readonly subscribers: EventSubscriber[] = [];

  subscribe(subscriber: EventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  async publish(events: GraphEvent[]): Promise<void> {
    for (const event of events) {
      for (const subscriber of this.subscribers) {
        try {
          await subscriber(event);
        } catch (err) {
          console.error(JSON.stringify({ level: 'ERROR', message: 'event subscriber failed', eventId: event.id, error: String(err) }));
        }
      }
    }
  }
}
