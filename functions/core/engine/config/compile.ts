import {
  compileExpression,
  compileValue,
  type CompiledExpression,
  type CompiledValue,
  type ExpressionReferences,
} from '../../expression';
import type { Component, Connection, EngineConfig, QueryParamsOptions, Template } from './model';

/** A header or query parameter with its value compiled. */
export interface CompiledPair {
  name: string;
  value: CompiledValue;
}

export interface CompiledSubComponent {
  propertyName: string;
  componentCodes: string[];
  contextField: string;
  expression: CompiledExpression;
}

/**
 * A component ready to run: every expression parsed once, the connection merged in
 * (the component wins on a clash), and what it reads and writes known, for the planner.
 */
export interface CompiledComponent {
  componentCode: string;
  component: Component;
  trigger?: CompiledExpression;
  validity?: CompiledExpression;
  baseUrl: string;
  paths: CompiledValue[];
  method: string;
  headers: CompiledPair[];
  queryParams: CompiledPair[];
  queryParamsOptions: QueryParamsOptions;
  body?: CompiledValue;
  timeoutMs: number;
  /** The connection's code, resilience settings and the component's cache time. */
  connectionCode: string;
  retry?: { attempts: number; statuses?: number[] };
  circuitBreaker: false | { failureThreshold: number; openSeconds: number };
  cacheTtlSeconds?: number;
  enrichment: { contextField: string; expression: CompiledExpression }[];
  subComponents: CompiledSubComponent[];
  /** Context fields read by any of its expressions (INTERFACE.md "Component result status" rule 2). */
  readsContextFields: string[];
  /** Components whose response it reads through componentResponse. */
  readsResponsesOf: string[];
  /** Context fields it writes through Context Field Enrichment. */
  enriches: string[];
}

export interface CompiledConfig {
  version: number;
  components: Map<string, CompiledComponent>;
  templates: Map<string, Template>;
  /** Context field -> components that enrich it. */
  enrichersOf: Map<string, string[]>;
  /** Components that could not be compiled, with the reason; they report FAILED if queried. */
  broken: Map<string, string>;
  /** Every problem found; empty for a valid configuration. */
  problems: ConfigProblem[];
}

/** A configuration problem, with the path of the field at fault. */
export interface ConfigProblem {
  path: string;
  message: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map((p) => `${p.path}: ${p.message}`).join('; '));
    this.name = 'ConfigError';
  }
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_CIRCUIT_BREAKER = { failureThreshold: 5, openSeconds: 30 };

/**
 * Compiles a whole configuration and lists every problem: an expression that does not parse,
 * a component whose connection is missing, a template or sub component naming a component
 * that does not exist. Writes refuse a configuration with problems (`assertValid`); queries
 * run what compiled and report the rest FAILED, so one bad object never stops the others.
 */
export function compileConfig(config: EngineConfig, version = 0): CompiledConfig {
  const problems: ConfigProblem[] = [];
  const connections = new Map(config.connections.map((c) => [c.connectionCode, c]));
  const componentCodes = new Set(config.components.map((c) => c.componentCode));
  const components = new Map<string, CompiledComponent>();
  const broken = new Map<string, string>();
  for (const connection of config.connections) checkConnection(connection, problems);

  for (const component of config.components) {
    const where = `components.${component.componentCode}`;
    const before = problems.length;
    const connection = connections.get(component.config.connectionCode);
    if (!connection) {
      problems.push({ path: `${where}.config.connectionCode`, message: `connection ${component.config.connectionCode} does not exist` });
      broken.set(component.componentCode, problems[before].message);
      continue;
    }
    for (const sub of component.subComponents ?? []) {
      for (const code of sub.componentCodes) {
        if (!componentCodes.has(code)) problems.push({ path: `${where}.subComponents`, message: `component ${code} does not exist` });
      }
    }
    const compiled = compileComponent(component, connection, where, problems);
    if (compiled && problems.length === before) components.set(component.componentCode, compiled);
    else broken.set(component.componentCode, problems.slice(before).map((p) => `${p.path}: ${p.message}`).join('; '));
  }

  const templates = new Map(config.templates.map((t) => [t.templateCode, t]));
  for (const template of config.templates) {
    for (const code of template.componentCodes) {
      if (!componentCodes.has(code)) {
        problems.push({ path: `templates.${template.templateCode}.componentCodes`, message: `component ${code} does not exist` });
      }
    }
  }
  const enrichersOf = new Map<string, string[]>();
  for (const c of components.values()) {
    for (const field of c.enriches) enrichersOf.set(field, [...(enrichersOf.get(field) ?? []), c.componentCode]);
  }
  const unique = [...new Map(problems.map((p) => [`${p.path}\n${p.message}`, p])).values()];
  return { version, components, templates, enrichersOf, broken, problems: unique };
}

/** A connection's own values must compile even while no component uses it. */
function checkConnection(connection: Connection, problems: ConfigProblem[]): void {
  const where = `connections.${connection.connectionCode}.config`;
  const values: [string, unknown][] = [
    [`${where}.path`, connection.config.path ?? ''],
    [`${where}.body`, connection.config.body],
    ...(connection.config.baseHeaders ?? []).map((h): [string, unknown] => [`${where}.baseHeaders.${h.header}`, h.value]),
    ...(connection.config.baseQueryParams ?? []).map((q): [string, unknown] => [`${where}.baseQueryParams.${q.parameter}`, q.value]),
  ];
  for (const [path, value] of values) {
    try {
      compileValue(value);
    } catch (err) {
      problems.push({ path, message: (err as Error).message });
    }
  }
}

/** Throws `ConfigError` when the compiled configuration has any problem. */
export function assertValid(compiled: CompiledConfig): CompiledConfig {
  if (compiled.problems.length > 0) throw new ConfigError(compiled.problems);
  return compiled;
}

function compileComponent(
  component: Component,
  connection: Connection,
  where: string,
  problems: ConfigProblem[],
): CompiledComponent | undefined {
  const refs: ExpressionReferences[] = [];
  const failedBefore = problems.length;
  const expr = (text: string | undefined, path: string): CompiledExpression | undefined => {
    if (text === undefined) return undefined;
    try {
      const compiled = compileExpression(text);
      refs.push(compiled.references);
      return compiled;
    } catch (err) {
      problems.push({ path, message: (err as Error).message });
      return undefined;
    }
  };
  const val = (raw: unknown, path: string): CompiledValue | undefined => {
    try {
      const compiled = compileValue(raw);
      refs.push(compiled.references);
      return compiled;
    } catch (err) {
      problems.push({ path, message: (err as Error).message });
      return undefined;
    }
  };
  const pairs = (base: { name: string; value: unknown }[], own: { name: string; value: unknown }[], path: string, caseInsensitive: boolean) => {
    const merged = new Map<string, { name: string; value: unknown }>();
    const keyOf = (name: string) => (caseInsensitive ? name.toLowerCase() : name);
    for (const pair of [...base, ...own]) merged.set(keyOf(pair.name), pair);
    return [...merged.values()].map((pair) => ({ name: pair.name, value: val(pair.value, `${path}.${pair.name}`)! }));
  };

  const cfg = component.config;
  const body = mergedBody(connection.config.body, cfg.body);
  const compiled: CompiledComponent = {
    componentCode: component.componentCode,
    component,
    trigger: expr(component.triggerExpression, `${where}.triggerExpression`),
    validity: expr(component.validityExpression, `${where}.validityExpression`),
    baseUrl: connection.config.baseUrl,
    paths: [
      val(connection.config.path ?? '', `connections.${connection.connectionCode}.config.path`)!,
      val(cfg.path ?? '', `${where}.config.path`)!,
    ],
    method: cfg.method || connection.config.method || 'GET',
    headers: pairs(
      (connection.config.baseHeaders ?? []).map((h) => ({ name: h.header, value: h.value })),
      (cfg.headers ?? []).map((h) => ({ name: h.header, value: h.value })),
      `${where}.config.headers`,
      true,
    ),
    queryParams: pairs(
      (connection.config.baseQueryParams ?? []).map((q) => ({ name: q.parameter, value: q.value })),
      (cfg.queryParams ?? []).map((q) => ({ name: q.parameter, value: q.value })),
      `${where}.config.queryParams`,
      false,
    ),
    queryParamsOptions: cfg.queryParamsOptions ?? {},
    body: body === undefined ? undefined : val(body, `${where}.config.body`),
    timeoutMs: connection.config.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    connectionCode: connection.connectionCode,
    retry: connection.config.retry,
    circuitBreaker: connection.config.circuitBreaker ?? DEFAULT_CIRCUIT_BREAKER,
    cacheTtlSeconds: component.cacheTtlSeconds,
    enrichment: (component.contextFieldEnrichment ?? []).map((e, i) => ({
      contextField: e.contextField,
      expression: expr(e.expression, `${where}.contextFieldEnrichment.${i}.expression`)!,
    })),
    subComponents: (component.subComponents ?? []).map((s, i) => ({
      ...s,
      expression: expr(s.expression, `${where}.subComponents.${i}.expression`)!,
    })),
    readsContextFields: [],
    readsResponsesOf: [],
    enriches: [...new Set((component.contextFieldEnrichment ?? []).map((e) => e.contextField))],
  };
  if (problems.length > failedBefore) return undefined;
  compiled.readsContextFields = [...new Set(refs.flatMap((r) => r.contextFields))];
  compiled.readsResponsesOf = [...new Set(refs.flatMap((r) => r.componentResponses))];
  return compiled;
}

/** The connection's base body merged with the component's: objects merge, otherwise the component wins. */
function mergedBody(base: unknown, own: unknown): unknown {
  if (isPlainObject(base) && isPlainObject(own)) return { ...base, ...own };
  return own ?? base;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
