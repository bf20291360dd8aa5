import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HANDLERS } from '../../functions/routes';
import { handlerEntry } from '../constructs/function-factory';
import {
  ADAPTER_ENV,
  EVENT_FUNCTIONS,
  FUNCTIONS,
  SANDBOX_NODE_MODULES,
  
  environmentNames,
  type FunctionName,
} from '../function-wiring';
import { actionsOf, functionProps, logicalIdOf, mentions, resourcesOf, roleIdOf, statementsOfRole, synthesized, type Statement } from './synth';

const { stateful, stateless, statelessTemplate: template } = synthesized();
const created = stateless.functions.created;
const tableId = logicalIdOf(stateful.table);
const bucketId = logicalIdOf(stateful.filesBucket);
const busId = logicalIdOf(stateful.eventBus);
const stateMachineIds = Object.values(stateless.jobs.stateMachines).map((sm) => logicalIdOf(sm));

const DYNAMODB_READ = ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:Scan', 'dynamodb:ConditionCheckItem', 'dynamodb:DescribeTable', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
const S3_WRITE = ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];

/** Actions of the statements that name a resource (by logical id). */
function actionsOn(statements: Statement[], logicalId: string): string[] {
  return statements.filter((s) => mentions(s, logicalId)).flatMap(actionsOf);
}

describe('functions: one per entry of lib/function-wiring.ts', () => {
  it('every function of the stack was made from FUNCTIONS, and every entry is deployed', () => {
    expect(Object.keys(resourcesOf(template, 'AWS::Lambda::Function'))).toHaveLength(created.length);
    expect(new Set(created.map((c) => c.name))).toEqual(new Set([...HANDLERS, ...EVENT_FUNCTIONS]));
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) expect(existsSync(handlerEntry(name)), name).toBe(true);
  });

  it('the authorizer runs twice (engine and graph scopes); every other handler once', () => {
    const counts = new Map<string, number>();
    for (const { name } of created) counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const [name, count] of counts) expect(count, name).toBe(name === 'authorizer' ? 2 : 1);
  });

  it('runs every function on Node.js 22, arm64, traced, JSON logs, source maps', () => {
    for (const { name, fn } of created) {
      expect(functionProps(template, fn), name).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) } },
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
        Handler: 'index.handler',
      });
    }
  });

  it('sizes each function as FUNCTIONS says: API handlers 512 MB / 29 s, the import worker 2048 MB / 15 min', () => {
    for (const { name, fn } of created) {
      const spec = FUNCTIONS[name];
      expect(functionProps(template, fn), name).toMatchObject({ MemorySize: spec.memorySize ?? 512, Timeout: spec.timeoutSeconds ?? 29 });
    }
    for (const name of HANDLERS) expect(FUNCTIONS[name].timeoutSeconds ?? 29, name).toBeLessThan(30);
    expect(FUNCTIONS['import-worker']).toMatchObject({ memorySize: 2048, timeoutSeconds: 900, nodeModules: SANDBOX_NODE_MODULES });
  });

  it('keeps every log group (functions, state machines, API access logs) one month', () => {
    template.resourceCountIs('AWS::Logs::LogGroup', created.length + stateMachineIds.length + 1);
    template.allResourcesProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    const logGroupIds = new Set(Object.keys(resourcesOf(template, 'AWS::Logs::LogGroup')));
    for (const { fn } of created) expect(logGroupIds.has(functionProps(template, fn).LoggingConfig.LogGroup.Ref)).toBe(true);
  });
});

describe('functions: each gets exactly the variables of its needs, each with its permission', () => {
  it('sets exactly the variables of its needs (besides NODE_OPTIONS and the authorizer scope)', () => {
    for (const { name, fn } of created) {
      const names = Object.keys(functionProps(template, fn).Environment.Variables)
        .filter((n) => n !== 'NODE_OPTIONS' && n !== 'AUTH_SCOPE')
        .sort();
      expect(names, name).toEqual(environmentNames(FUNCTIONS[name].needs));
    }
  });

  it('grants table access exactly to the functions that need it, read-only where they only read', () => {
    for (const { name, fn } of created) {
      const access = FUNCTIONS[name].needs.table;
      const variables = functionProps(template, fn).Environment.Variables;
      const actions = actionsOn(statementsOfRole(template, roleIdOf(template, fn)), tableId).filter((a) => a.startsWith('dynamodb:'));
      // The stream publisher reads the table's stream through its event source, not the table.
      const tableActions = name === 'stream-publisher' ? actions.filter((a) => !/Stream|GetRecords|GetShardIterator/.test(a)) : actions;
      expect(tableActions.length > 0, name).toBe(access !== undefined);
      expect(variables.TABLE_NAME !== undefined, name).toBe(access !== undefined);
      if (access === 'read') for (const action of tableActions) expect(DYNAMODB_READ, `${name} ${action}`).toContain(action);
      if (access === 'readWrite') expect(tableActions, name).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem']));
    }
  });

  it('grants the files bucket exactly to the functions that need it: named object actions and ListBucket', () => {
    for (const { name, fn } of created) {
      const access = FUNCTIONS[name].needs.filesBucket;
      const actions = actionsOn(statementsOfRole(template, roleIdOf(template, fn)), bucketId);
      expect(actions.length > 0, name).toBe(access !== undefined);
      if (!access) continue;
      expect(functionProps(template, fn).Environment.Variables.FILES_BUCKET, name).toEqual(expect.objectContaining({ 'Fn::ImportValue': expect.stringContaining(bucketId) }));
      expect(actions.sort()).toEqual((access === 'read' ? ['s3:GetObject', 's3:ListBucket'] : ['s3:GetObject', 's3:ListBucket', ...S3_WRITE]).sort());
    }
  });

  it('grants PutEvents on the bus to the stream publisher only', () => {
    for (const { name, fn } of created) {
      const actions = actionsOn(statementsOfRole(template, roleIdOf(template, fn)), busId);
      expect(actions, name).toEqual(FUNCTIONS[name].needs.eventBus ? ['events:PutEvents'] : []);
    }
  });

  it('grants StartExecution on every job state machine, with JOB_STATE_MACHINES naming them, to the functions that start jobs only', () => {
    for (const { name, fn } of created) {
      const statements = statementsOfRole(template, roleIdOf(template, fn));
      const variable = JSON.stringify(functionProps(template, fn).Environment.Variables.JOB_STATE_MACHINES ?? null);
      for (const id of stateMachineIds) {
        expect(actionsOn(statements, id).includes('states:StartExecution'), `${name} ${id}`).toBe(FUNCTIONS[name].needs.startsJobs === true);
        expect(variable.includes(id), `${name} ${id}`).toBe(FUNCTIONS[name].needs.startsJobs === true);
      }
    }
    expect(created.filter(({ name }) => FUNCTIONS[name].needs.startsJobs).map((c) => c.name).sort()).toEqual(['graph-jobs', 'job-schedule', 'trigger-dispatcher']);
  });

  it('grants schedule management and PassRole to the functions that define job definitions only', () => {
    for (const { name, fn } of created) {
      const actions = statementsOfRole(template, roleIdOf(template, fn)).flatMap(actionsOf);
      const schedules = FUNCTIONS[name].needs.schedulesJobs === true;
      expect(actions.some((a) => a.startsWith('scheduler:')), name).toBe(schedules);
      expect(actions.includes('iam:PassRole'), name).toBe(schedules);
      const variables = functionProps(template, fn).Environment.Variables;
      for (const variable of ADAPTER_ENV.jobSchedules) {
        const expected = schedules ? expect.anything() : undefined;
        expect(variables[variable], `${name} ${variable}`).toEqual(expected);
      }
    }
  });

  it('gives the data-free handlers (health, sample-data) no data permission and no variable', () => {
    for (const { name, fn } of created.filter((c) => c.name === 'health' || c.name === 'sample-data')) {
      const actions = statementsOfRole(template, roleIdOf(template, fn)).flatMap(actionsOf);
      expect(actions.filter((a) => !a.startsWith('xray:')), name).toEqual([]);
      expect(Object.keys(functionProps(template, fn).Environment.Variables), name).toEqual(['NODE_OPTIONS']);
    }
  });
});
