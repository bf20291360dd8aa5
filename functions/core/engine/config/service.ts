import { BadRequestError, ConflictError, NotFoundError } from '../../../http/errors';
import type { CompiledConfigCache } from './cache';
import { compileConfig, type ConfigProblem } from './compile';
import { KINDS, type EngineConfig, type Kind } from './model';
import type { EngineConfigRepository } from './repository';

type AnyObject = EngineConfig[keyof EngineConfig][number];

/**
 * The console forms as use cases: create or replace, read, list, delete, export and import
 * a customer's connections, components and templates. A write is checked against the whole
 * configuration it would produce (every expression parses, every reference exists), so the
 * stored configuration is always one the engine can run.
 */
export class EngineConfigService {
  constructor(
    private readonly repository: EngineConfigRepository,
    private readonly cache: CompiledConfigCache,
  ) {}

  async get(customerCode: string, kind: Kind, code: string): Promise<AnyObject> {
    const object = await this.repository.get(customerCode, kind, code);
    if (!object) throw new NotFoundError(`${capitalised(kind)} ${code} does not exist`);
    return object;
  }

  list(customerCode: string, kind: Kind): Promise<AnyObject[]> {
    return this.repository.list(customerCode, kind);
  }

  /** Creates or replaces; `object` has been shape-checked already. */
  async put(customerCode: string, kind: Kind, code: string, object: AnyObject): Promise<AnyObject> {
    const bodyCode = (object as unknown as Record<string, string>)[KINDS[kind].codeField];
    if (bodyCode !== code) {
      throw new BadRequestError(`${KINDS[kind].codeField} in the body (${bodyCode}) differs from the path (${code})`, 'CodeMismatch');
    }
    const current = await this.repository.loadAll(customerCode);
    const list = current[KINDS[kind].plural] as AnyObject[];
    const index = list.findIndex((o) => (o as unknown as Record<string, string>)[KINDS[kind].codeField] === code);
    if (index >= 0) list[index] = object;
    else list.push(object);
    // Only problems this object causes or suffers refuse the write; the rest were there before.
    const problems = compileConfig(current).problems.filter((p) => concerns(p, kind, code));
    if (problems.length > 0) throw invalid(problems);
    await this.repository.put(customerCode, kind, object as never);
    this.cache.invalidate(customerCode);
    return object;
  }

  /** Removes; 404 when absent, 409 while something still uses it. */
  async delete(customerCode: string, kind: Kind, code: string): Promise<void> {
    const current = await this.repository.loadAll(customerCode);
    const users = usersOf(current, kind, code);
    if (users.length > 0) throw new ConflictError(`${capitalised(kind)} ${code} is still used by ${users.join(', ')}`);
    if (!(await this.repository.delete(customerCode, kind, code))) {
      throw new NotFoundError(`${capitalised(kind)} ${code} does not exist`);
    }
    this.cache.invalidate(customerCode);
  }

  export(customerCode: string): Promise<EngineConfig> {
    return this.repository.loadAll(customerCode);
  }

  /** Replaces the whole configuration after checking it as a whole. */
  async import(customerCode: string, config: EngineConfig): Promise<EngineConfig> {
    for (const kind of Object.keys(KINDS) as Kind[]) {
      const codes = (config[KINDS[kind].plural] as AnyObject[]).map((o) => (o as unknown as Record<string, string>)[KINDS[kind].codeField]);
      const duplicate = codes.find((c, i) => codes.indexOf(c) !== i);
      if (duplicate) throw new BadRequestError(`engineConfig.${KINDS[kind].plural}: ${duplicate} appears twice`, 'ValidationError');
    }
    const { problems } = compileConfig(config);
    if (problems.length > 0) throw invalid(problems);
    await this.repository.replaceAll(customerCode, config);
    this.cache.invalidate(customerCode);
    return config;
  }
}

/** Who refers to an object: components use connections, templates and sub component entries use components. */
function usersOf(config: EngineConfig, kind: Kind, code: string): string[] {
  if (kind === 'connection') {
    return config.components.filter((c) => c.config.connectionCode === code).map((c) => `component ${c.componentCode}`);
  }
  if (kind === 'component') {
    return [
      ...config.templates.filter((t) => t.componentCodes.includes(code)).map((t) => `template ${t.templateCode}`),
      ...config.components
        .filter((c) => c.componentCode !== code && (c.subComponents ?? []).some((s) => s.componentCodes.includes(code)))
        .map((c) => `component ${c.componentCode}`),
    ];
  }
  return [];
}

function concerns(problem: ConfigProblem, kind: Kind, code: string): boolean {
  return problem.path.startsWith(`${KINDS[kind].plural}.${code}.`);
}

function invalid(problems: ConfigProblem[]): BadRequestError {
  return new BadRequestError(problems.map((p) => `${p.path}: ${p.message}`).join('; '), 'InvalidConfiguration');
}

function capitalised(kind: Kind): string {
  return kind[0].toUpperCase() + kind.slice(1);
}
