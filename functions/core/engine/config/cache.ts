import { compileConfig, type CompiledConfig } from './compile';
import type { EngineConfigRepository } from './repository';

/**
 * Compiled configuration per customer. A query reuses the compiled form and checks the
 * stored version at most once per `refreshMs` (one GetItem), so a change made through any
 * instance is seen within that bound; changes made through this instance are seen at once.
 */
export class CompiledConfigCache {
  private readonly entries = new Map<string, { compiled: CompiledConfig; checkedAt: number }>();

  constructor(
    private readonly repository: EngineConfigRepository,
    private readonly now: () => number = Date.now,
    private readonly refreshMs = 1_000,
  ) {}

  async get(customerCode: string): Promise<CompiledConfig> {
    const entry = this.entries.get(customerCode);
    const now = this.now();
    if (entry && now - entry.checkedAt < this.refreshMs) return entry.compiled;
    const version = await this.repository.version(customerCode);
    if (entry && entry.compiled.version === version) {
      entry.checkedAt = now;
      return entry.compiled;
    }
    const compiled = compileConfig(await this.repository.loadAll(customerCode), version);
    this.entries.set(customerCode, { compiled, checkedAt: now });
    return compiled;
  }

  invalidate(customerCode: string): void {
    this.entries.delete(customerCode);
  }
}
