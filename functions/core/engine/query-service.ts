import { NotFoundError } from '../../http/errors';
import type { HttpClient } from '../../ports/http-client';
import { CircuitBreakers } from './execution/upstream/circuit-breaker';
import { ResponseCache } from './execution/upstream/response-cache';
import type { CompiledConfigCache } from './config/cache';
import type { CompiledConfig } from './config/compile';
import { runQuery } from './execution/run-query';
import type { QueryResult } from './execution/result';

export interface ComponentQuery {
  componentCodes: string[];
  context?: Record<string, unknown>;
  processSubComponents?: boolean;
}

export interface TemplateQuery {
  /** INTERFACE.md: an array with one template code in the example; a plain string is accepted too. */
  templateCode: string | string[];
  context?: Record<string, unknown>;
  processSubComponents?: boolean;
}

/** INTERFACE.md "Orchestration engine": the component query and the template query. */
export class EngineQueryService {
  private readonly breakers: CircuitBreakers;
  private readonly responses: ResponseCache;

  constructor(
    private readonly cache: CompiledConfigCache,
    private readonly http: HttpClient,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.breakers = new CircuitBreakers(now);
    this.responses = new ResponseCache(now);
  }

  async queryComponents(customerCode: string, query: ComponentQuery): Promise<QueryResult> {
    const config = await this.cache.get(customerCode);
    const unknown = query.componentCodes.filter((code) => !isKnown(config, code));
    if (unknown.length > 0) throw new NotFoundError(`Unknown component code${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
    return this.run(customerCode, config, query.componentCodes, query);
  }

  /** Same shape and content as the component query, for the components of the template(s). */
  async queryTemplate(customerCode: string, query: TemplateQuery): Promise<QueryResult> {
    const config = await this.cache.get(customerCode);
    const codes = Array.isArray(query.templateCode) ? query.templateCode : [query.templateCode];
    const unknown = codes.filter((code) => !config.templates.has(code));
    if (unknown.length > 0) throw new NotFoundError(`Unknown template code${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`);
    const componentCodes = [...new Set(codes.flatMap((code) => config.templates.get(code)!.componentCodes))];
    return this.run(customerCode, config, componentCodes, query);
  }

  private run(customerCode: string, config: CompiledConfig, componentCodes: string[], query: { context?: Record<string, unknown>; processSubComponents?: boolean }) {
    return runQuery(
      config,
      { componentCodes, context: query.context ?? {}, processSubComponents: query.processSubComponents === true },
      { upstream: { http: this.http, customerCode, breakers: this.breakers, cache: this.responses, now: this.now, sleep: this.sleep } },
    );
  }
}

function isKnown(config: CompiledConfig, code: string): boolean {
  return config.components.has(code) || config.broken.has(code);
}
