import type { CompiledConfig, CompiledComponent } from '../config/compile';
import type { Limiter } from './limiter';
import type { Upstream } from './call-webservice';
import { queryFunctions, runComponent } from './run-component';
import { failed, type ComponentResult } from './result';

/** Sub components of sub components are processed this deep, no deeper (a component may list itself). */
export const MAX_SUB_COMPONENT_DEPTH = 3;

export interface SubComponentRun {
  config: CompiledConfig;
  context: Record<string, unknown>;
  responseOf: (componentCode: string) => unknown;
  upstream: Upstream;
  /** Bounds the web service calls of all sub components of one query. */
  limiter: Limiter;
}

/**
 * INTERFACE.md "Sub component output": for each record of the parent's response, each listed
 * component runs with the entry's context field set to the entry's expression evaluated on
 * that record, and its `{status, response}` is attached to the record under the entry's
 * property name. Records are copied, never changed in place, so a component that reads the
 * parent's response sees it as the web service returned it. All calls run concurrently,
 * bounded by the query's limiter.
 */
export async function withSubComponents(
  parent: CompiledComponent,
  result: ComponentResult,
  run: SubComponentRun,
  depth = 1,
): Promise<ComponentResult> {
  if (!('response' in result) || parent.subComponents.length === 0 || depth > MAX_SUB_COMPONENT_DEPTH) return result;
  const { response } = result;
  const records = Array.isArray(response) ? response : isRecord(response) ? [response] : [];
  const expanded = await Promise.all(records.map((record) => expandRecord(parent, record, run, depth)));
  return { ...result, response: Array.isArray(response) ? expanded : (expanded[0] ?? response) };
}

async function expandRecord(parent: CompiledComponent, record: unknown, run: SubComponentRun, depth: number): Promise<unknown> {
  if (!isRecord(record)) return record;
  const copy: Record<string, unknown> = { ...record };
  const functions = queryFunctions(run);
  await Promise.all(
    parent.subComponents.map(async (entry) => {
      let value: unknown;
      let error: string | undefined;
      try {
        value = entry.expression.evaluate({ functions, variables: { response: record } });
      } catch (err) {
        error = (err as Error).message;
      }
      const outputs: Record<string, ComponentResult> = {};
      await Promise.all(
        entry.componentCodes.map(async (code) => {
          outputs[code] =
            error !== undefined ? failed(error) : await runSubComponent(code, { ...run, context: { ...run.context, [entry.contextField]: value } }, depth);
        }),
      );
      // Keep the configured order of codes in the attached object.
      copy[entry.propertyName] = Object.fromEntries(entry.componentCodes.map((code) => [code, outputs[code]]));
    }),
  );
  return copy;
}

async function runSubComponent(code: string, run: SubComponentRun, depth: number): Promise<ComponentResult> {
  const component = run.config.components.get(code);
  if (!component) return failed(run.config.broken.get(code) ?? `Component ${code} does not exist`);
  const result = await run.limiter.run(() => runComponent(component, { context: run.context, responseOf: run.responseOf, upstream: run.upstream }));
  return withSubComponents(component, result, run, depth + 1);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
