import { describe, expect, it } from 'vitest';
import { CircuitBreakers } from '../upstream/circuit-breaker';
import { ResponseCache } from '../upstream/response-cache';

const settings = { failureThreshold: 3, openSeconds: 10 };

describe('circuit breaker', () => {
  it('opens after the threshold, lets one trial through after openSeconds, closes on its success', () => {
    let now = 0;
    const breakers = new CircuitBreakers(() => now);
    for (let i = 0; i < 2; i++) breakers.failure('c|acme', settings);
    expect(breakers.refusal('c|acme', settings)).toBeUndefined();
    breakers.failure('c|acme', settings);
    expect(breakers.refusal('c|acme', settings)).toMatch(/open after 3 consecutive failures/);
    now = 10_000;
    expect(breakers.refusal('c|acme', settings)).toBeUndefined();
    // Only one trial while it is half open.
    expect(breakers.refusal('c|acme', settings)).toMatch(/open/);
    breakers.success('c|acme');
    expect(breakers.refusal('c|acme', settings)).toBeUndefined();
  });

  it('a failed trial opens it again for openSeconds; other keys are unaffected', () => {
    let now = 0;
    const breakers = new CircuitBreakers(() => now);
    for (let i = 0; i < 3; i++) breakers.failure('c|acme', settings);
    now = 10_000;
    expect(breakers.refusal('c|acme', settings)).toBeUndefined();
    breakers.failure('c|acme', settings);
    now = 15_000;
    expect(breakers.refusal('c|acme', settings)).toMatch(/open/);
    expect(breakers.refusal('c|globex', settings)).toBeUndefined();
    now = 20_000;
    expect(breakers.refusal('c|acme', settings)).toBeUndefined();
  });
});

describe('response cache', () => {
  it('answers until the TTL passes, and keeps at most maxEntries, least recently used leaving first', () => {
    let now = 0;
    const cache = new ResponseCache(() => now, 2);
    cache.set('a', [1], 5);
    cache.set('b', [2], 5);
    expect(cache.get('a')).toEqual({ response: [1], cachedAt: 0, expiresAt: 5000 });
    cache.set('c', [3], 5);
    expect(cache.get('b')).toBeUndefined();
    now = 5_000;
    expect(cache.get('a')).toBeUndefined();
  });
});
