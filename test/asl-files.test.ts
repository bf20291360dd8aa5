/**
 * CI check of the state machines (`statemachines/*.asl.json`), the single source of truth that
 * CDK deploys and the local host runs with aws-local-stepfunctions. That library silently
 * ignores JSONata and supports neither `Assign` nor Distributed Maps, and times a Task without
 * TimeoutSeconds out at 60 s, so the ASL must stay in the subset both hosts run alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { describe, expect, it } from 'vitest';
import type { JobExecutionInput } from '../functions/ports/job-runner';

const DIR = fileURLToPath(new URL('../statemachines/', import.meta.url));
const FILES = readdirSync(DIR)
  .filter((name) => name.endsWith('.asl.json'))
  .sort();

/** The placeholders the CDK stack substitutes (definitionSubstitutions). */
const PLACEHOLDERS = new Set(['JobWorkerFunctionArn', 'ImportWorkerFunctionArn']);
const LAMBDA_INVOKE = 'arn:aws:states:::lambda:invoke';
/** Fields of JobExecutionInput: what `$.x` may read at the top level before any ResultPath writes. */
const INPUT_FIELDS: (keyof JobExecutionInput)[] = ['jobId', 'customerCode', 'jobType', 'params', 'progress', 'event'];

type State = Record<string, any>;
interface Machine {
  StartAt: string;
  States: Record<string, State>;
  [field: string]: unknown;
}
/** One state machine scope: the top level, or a Map's ItemProcessor / a Parallel branch. */
interface Scope {
  where: string;
  machine: Machine;
  /** Inside a Map's ItemProcessor (its tasks are caught by the Map). */
  inMap: boolean;
  /** Top-level keys of the scope's input, when known. */
  inputKeys?: Set<string>;
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function scopes(machine: Machine): Scope[] {
  const out: Scope[] = [];
  const visit = (m: Machine, where: string, inMap: boolean, inputKeys?: Set<string>) => {
    out.push({ where, machine: m, inMap, inputKeys });
    for (const [name, state] of Object.entries(m.States ?? {})) {
      if (state.Type === 'Map') {
        const processor = state.ItemProcessor ?? state.Iterator;
        const selector = state.ItemSelector ?? state.Parameters;
        const keys = isObject(selector) ? new Set(Object.keys(selector).map((k) => k.replace(/\.\$$/, ''))) : undefined;
        if (processor) visit(processor, `${where} > ${name}`, true, keys);
      }
      if (state.Type === 'Parallel') {
        (state.Branches ?? []).forEach((branch: Machine, i: number) => visit(branch, `${where} > ${name}[${i}]`, inMap, inputKeys));
      }
    }
  };
  visit(machine, 'top', false, new Set(INPUT_FIELDS));
  return out;
}

/** Every string of a JSON value, with the key path that holds it. */
function* strings(value: unknown, path: string[] = []): Generator<{ path: string[]; value: string }> {
  if (typeof value === 'string') yield { path, value };
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* strings(item, [...path, String(i)]);
  else if (isObject(value)) for (const [key, item] of Object.entries(value)) yield* strings(item, [...path, key]);
}
/** Every key of a JSON value, with its path. */
function* keys(value: unknown, path: string[] = []): Generator<{ path: string[]; key: string; value: unknown }> {
  if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* keys(item, [...path, String(i)]);
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      yield { path, key, value: item };
      yield* keys(item, [...path, key]);
    }
  }
}

const transitions = (state: State): string[] => [
  ...(typeof state.Next === 'string' ? [state.Next] : []),
  ...(typeof state.Default === 'string' ? [state.Default] : []),
  ...(Array.isArray(state.Choices) ? state.Choices.map((c: State) => c.Next) : []),
  ...(Array.isArray(state.Catch) ? state.Catch.map((c: State) => c.Next) : []),
];

function reachableFrom(machine: Machine, starts: string[], follow: (state: State) => string[] = transitions): Set<string> {
  const seen = new Set<string>();
  const queue = [...starts];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name) || !machine.States[name]) continue;
    seen.add(name);
    queue.push(...follow(machine.States[name]!));
  }
  return seen;
}

const catchesAll = (state: State) =>
  Array.isArray(state.Catch) && state.Catch.some((c: State) => Array.isArray(c.ErrorEquals) && c.ErrorEquals.includes('States.ALL'));

it('there are state machine files to check', () => {
  expect(FILES).toEqual(expect.arrayContaining(['call-webservice.asl.json', 'download-data-from-webservice.asl.json', 'import-data-files.asl.json']));
});

describe.each(FILES)('statemachines/%s', (file) => {
  const text = readFileSync(join(DIR, file), 'utf8');
  const parse = (): Machine => JSON.parse(text) as Machine;

  it('is valid JSON and a state machine', () => {
    const machine = parse();
    expect(typeof machine.StartAt).toBe('string');
    expect(isObject(machine.States)).toBe(true);
  });

  it('is valid ASL (asl-validator, through aws-local-stepfunctions), placeholders substituted', () => {
    const substituted = JSON.parse(
      text.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => `arn:aws:lambda:eu-west-1:123456789012:function:${name}`),
    ) as StateMachineDefinition;
    expect(() => new StateMachine(substituted, { validationOptions: { checkArn: true, checkPaths: true } })).not.toThrow();
  });

  it('is JSONPath only: no JSONata, no Assign, no Arguments/Output', () => {
    const machine = parse();
    const problems: string[] = [];
    for (const { path, key, value } of keys(machine)) {
      if (key === 'QueryLanguage' && value !== 'JSONPath') problems.push(`${[...path, key].join('.')} = ${String(value)}`);
    }
    for (const { path, value } of strings(machine)) {
      if (/\{%[\s\S]*%\}/.test(value)) problems.push(`${path.join('.')}: JSONata expression ${value}`);
    }
    for (const scope of scopes(machine)) {
      for (const [name, state] of Object.entries(scope.machine.States)) {
        for (const field of ['Assign', 'Arguments', 'Output', 'Items']) {
          if (field in state) problems.push(`${scope.where}.${name}: ${field}`);
        }
        for (const inner of [...(state.Catch ?? []), ...(state.Choices ?? [])]) {
          if ('Assign' in inner) problems.push(`${scope.where}.${name}: Assign in Catch/Choices`);
          if ('Condition' in inner) problems.push(`${scope.where}.${name}: JSONata Condition`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no Distributed Map (inline Maps only)', () => {
    const problems: string[] = [];
    for (const scope of scopes(parse())) {
      for (const [name, state] of Object.entries(scope.machine.States)) {
        if (state.Type !== 'Map') continue;
        const mode = (state.ItemProcessor ?? state.Iterator)?.ProcessorConfig?.Mode;
        if (mode !== undefined && mode !== 'INLINE') problems.push(`${scope.where}.${name}: ProcessorConfig.Mode ${mode}`);
        for (const field of ['ItemReader', 'ResultWriter', 'ItemBatcher']) if (field in state) problems.push(`${scope.where}.${name}: ${field}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every Task is a lambda:invoke of a placeholder, with TimeoutSeconds and a Retry', () => {
    const problems: string[] = [];
    for (const scope of scopes(parse())) {
      for (const [name, state] of Object.entries(scope.machine.States)) {
        if (state.Type !== 'Task') continue;
        const at = `${scope.where}.${name}`;
        if (state.Resource !== LAMBDA_INVOKE) problems.push(`${at}: Resource ${state.Resource}`);
        if (!/^\$\{[A-Za-z0-9_]+\}$/.test(String(state.Parameters?.FunctionName))) {
          problems.push(`${at}: FunctionName ${JSON.stringify(state.Parameters?.FunctionName)} is not a placeholder`);
        }
        if (!(Number.isInteger(state.TimeoutSeconds) && state.TimeoutSeconds > 0)) problems.push(`${at}: no TimeoutSeconds`);
        if (!(Array.isArray(state.Retry) && state.Retry.length > 0)) problems.push(`${at}: no Retry`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('uses only the ${JobWorkerFunctionArn} and ${ImportWorkerFunctionArn} placeholders', () => {
    const found = [...text.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]!);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((name) => !PLACEHOLDERS.has(name))).toEqual([]);
  });

  it('has unique state names, transitions to existing states only, and every state reachable', () => {
    const problems: string[] = [];
    const names = new Set<string>();
    for (const scope of scopes(parse())) {
      const { machine } = scope;
      if (!machine.States[machine.StartAt]) problems.push(`${scope.where}: StartAt ${machine.StartAt} is no state`);
      for (const [name, state] of Object.entries(machine.States)) {
        if (names.has(name)) problems.push(`${scope.where}.${name}: name used twice`);
        names.add(name);
        for (const next of transitions(state)) {
          if (!machine.States[next]) problems.push(`${scope.where}.${name}: transition to missing ${next}`);
        }
        const terminal = state.End === true || state.Type === 'Succeed' || state.Type === 'Fail';
        if (!terminal && transitions(state).length === 0) problems.push(`${scope.where}.${name}: neither End nor Next`);
      }
      const reachable = reachableFrom(machine, [machine.StartAt]);
      for (const name of Object.keys(machine.States)) {
        if (!reachable.has(name)) problems.push(`${scope.where}.${name}: unreachable`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every Task and Map outside the error path has a States.ALL Catch (Map item processors: the Map catches)', () => {
    const problems: string[] = [];
    for (const scope of scopes(parse())) {
      if (scope.inMap) continue;
      const { machine } = scope;
      // The error path: the Catch targets and what follows them (MarkFailed -> JobFailed). A
      // failure there has nowhere better to go; everywhere else it must reach the error path.
      const handlers = Object.values(machine.States).flatMap((s) => (s.Catch ?? []).map((c: State) => c.Next));
      const errorPath = reachableFrom(machine, handlers);
      for (const [name, state] of Object.entries(machine.States)) {
        if (!['Task', 'Map', 'Parallel'].includes(state.Type) || errorPath.has(name)) continue;
        if (!catchesAll(state)) problems.push(`${scope.where}.${name}: no States.ALL Catch`);
      }
      expect(handlers.length, `${scope.where}: no error handling at all`).toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
  });

  it('reads only known top-level fields with $.x (the input, or what a ResultPath wrote)', () => {
    const problems: string[] = [];
    for (const scope of scopes(parse())) {
      if (!scope.inputKeys) continue;
      const known = new Set(scope.inputKeys);
      for (const state of Object.values(scope.machine.States)) {
        for (const path of [state.ResultPath, ...(state.Catch ?? []).map((c: State) => c.ResultPath)]) {
          const first = typeof path === 'string' ? /^\$\.([A-Za-z0-9_]+)/.exec(path)?.[1] : undefined;
          if (first) known.add(first);
        }
      }
      for (const [name, state] of Object.entries(scope.machine.States)) {
        // What reads this scope's data: not ResultSelector (reads the task's result) nor
        // ItemProcessor (its own scope); ItemSelector reads the Map's input, so it is included.
        const reads = { ...state, ResultSelector: undefined, ItemProcessor: undefined, Iterator: undefined, Branches: undefined, ResultPath: undefined, Catch: undefined };
        for (const { path, value } of strings(reads)) {
          const key = path.at(-1) ?? '';
          const isPath = key.endsWith('.$') || ['InputPath', 'OutputPath', 'ItemsPath', 'Variable'].includes(key) || key.endsWith('Path');
          if (!isPath) continue;
          const first = /^\$\.([A-Za-z0-9_]+)/.exec(value)?.[1];
          if (first && !known.has(first)) problems.push(`${scope.where}.${name}: ${path.join('.')} reads $.${first}, which nothing writes`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
