/**
 * COMPAT.md: component responses cached with a TTL. Per host instance, bounded (least recently
 * used entries leave first), keyed by customer, component and the exact request, so two
 * customers or two contexts never share an entry.
 */
export class ResponseCache {
  private readonly entries = new Map<string, { response: unknown; cachedAt: number; expiresAt: number }>();

  constructor(
    private readonly now: () => number,
    private readonly maxEntries = 1_000,
  ) {}

  get(key: string): { response: unknown; cachedAt: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, response: unknown, ttlSeconds: number): void {
    const now = this.now();
    this.entries.set(key, { response, cachedAt: now, expiresAt: now + ttlSeconds * 1000 });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
