/**
 * One breaker per connection and host instance. Closed: calls go through, consecutive
 * failures are counted. After `failureThreshold` of them it opens: calls fail at once until
 * `openSeconds` have passed; then one trial call decides (success closes it, failure reopens).
 * State is per instance (each Lambda environment learns on its own), which is what a breaker
 * needs: it protects the caller's latency, not a shared quota.
 */
export class CircuitBreakers {
  private readonly states = new Map<string, { failures: number; openUntil: number; trial: boolean }>();

  constructor(private readonly now: () => number) {}

  /** Undefined when a call may go; the error message when the circuit is open. */
  refusal(key: string, settings: { failureThreshold: number; openSeconds: number }): string | undefined {
    const state = this.states.get(key);
    if (!state || state.failures < settings.failureThreshold) return undefined;
    if (this.now() >= state.openUntil && !state.trial) {
      state.trial = true;
      return undefined;
    }
    return `The circuit of connection ${key.split('|')[0]} is open after ${state.failures} consecutive failures; the next call goes through at ${new Date(state.openUntil).toISOString()}`;
  }

  success(key: string): void {
    this.states.delete(key);
  }

  failure(key: string, settings: { failureThreshold: number; openSeconds: number }): void {
    const state = this.states.get(key) ?? { failures: 0, openUntil: 0, trial: false };
    state.failures++;
    state.trial = false;
    if (state.failures >= settings.failureThreshold) state.openUntil = this.now() + settings.openSeconds * 1000;
    this.states.set(key, state);
    if (this.states.size > 10_000) this.states.delete(this.states.keys().next().value!);
  }
}
