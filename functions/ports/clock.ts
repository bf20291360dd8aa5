/** Time and identifiers, injected so that tests are exact. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export interface Ids {
  uuid(): string;
}

export const systemClock: Clock = { now: () => Date.now() };
export const randomIds: Ids = { uuid: () => crypto.randomUUID() };
