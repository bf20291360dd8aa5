import type { Asset } from 'aws-cdk-lib/aws-s3-assets';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobType } from '../../functions/ports/job-runner';
import { STATE_MACHINE_FILES, TASK_FUNCTIONS, stateMachinePaths } from '../../functions/state-machines';
import { placeholdersOf, type TaskPlaceholder } from '../constructs/jobs';
import { actionsOf, functionProps, logicalIdOf, mentions, resourcesOf, roleIdOf, statementsOfRole, synthesized } from './synth';

const { app, stateless, statelessTemplate: template } = synthesized();
const jobs = stateless.jobs;
const jobTypes = Object.keys(STATE_MACHINE_FILES) as JobType[];
const paths = stateMachinePaths();
const stateMachineProps = (jobType: JobType) => resourcesOf(template, 'AWS::StepFunctions::StateMachine')[logicalIdOf(jobs.stateMachines[jobType])]!.Properties;

/** Replaces each `${Placeholder}` with a marker naming what it stands for. */
function render(text: string, value: (placeholder: string) => string): unknown {
  return JSON.parse(text.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => value(name)));
}

describe('job state machines: the ASL files the local host runs', () => {
  it('one Standard, traced state machine per job type', () => {
    template.resourceCountIs('AWS::StepFunctions::StateMachine', jobTypes.length);
    for (const jobType of jobTypes) expect(stateMachineProps(jobType), jobType).toMatchObject({ StateMachineType: 'STANDARD', TracingConfiguration: { Enabled: true } });
  });

  it('each definition is its ASL file, byte for byte, with every placeholder substituted by the ARN of the function TASK_FUNCTIONS names', () => {
    for (const jobType of jobTypes) {
      const fileText = readFileSync(paths[jobType], 'utf8');
      const props = stateMachineProps(jobType);
      // DefinitionBody.fromFile ships the file as an asset; CloudFormation substitutes the placeholders.
      const asset = jobs.stateMachines[jobType].node.findChild('DefinitionBody') as Asset;
      const shipped = readFileSync(join(app.outdir, asset.assetPath), 'utf8');
      expect(shipped, jobType).toBe(fileText);
      expect(props.DefinitionS3Location.Key, jobType).toBe(`${asset.assetHash}.json`);
      expect(props.DefinitionString, jobType).toBeUndefined();

      const substitutions = props.DefinitionSubstitutions as Record<string, unknown>;
      expect(Object.keys(substitutions).sort(), jobType).toEqual(placeholdersOf(fileText).sort());
      const expectedArn = (p: string) => ({ 'Fn::GetAtt': [logicalIdOf(jobs.taskFunctions.get(p as TaskPlaceholder)!), 'Arn'] });
      for (const placeholder of Object.keys(substitutions)) expect(substitutions[placeholder], `${jobType} ${placeholder}`).toEqual(expectedArn(placeholder));
      // After substitution, the definition is the file's JSON with the functions' ARNs in place.
      const deployed = render(shipped, (p) => JSON.stringify(substitutions[p]).replace(/"/g, "'"));
      const expected = render(fileText, (p) => JSON.stringify(expectedArn(p)).replace(/"/g, "'"));
      expect(deployed, jobType).toEqual(expected);
    }
  });

  it('the task functions are the handlers TASK_FUNCTIONS names (job-worker, import-worker)', () => {
    for (const [placeholder, handler] of Object.entries(TASK_FUNCTIONS)) {
      const fn = jobs.taskFunctions.get(placeholder as TaskPlaceholder)!;
      expect(stateless.functions.created.find((c) => c.fn === fn)?.name, placeholder).toBe(handler);
    }
    expect(placeholdersOf(readFileSync(paths.callWebservice, 'utf8'))).toEqual(['JobWorkerFunctionArn']);
    expect(placeholdersOf(readFileSync(paths.importDataFiles, 'utf8')).sort()).toEqual(['ImportWorkerFunctionArn', 'JobWorkerFunctionArn']);
    expect(() => placeholdersOf('{"Resource": "${SomethingElse}"}')).toThrow(/TASK_FUNCTIONS/);
  });

  it('each state machine may invoke exactly the functions its file calls', () => {
    for (const jobType of jobTypes) {
      const roleId = stateMachineProps(jobType).RoleArn['Fn::GetAtt'][0] as string;
      const statements = statementsOfRole(template, roleId);
      const used = new Set(placeholdersOf(readFileSync(paths[jobType], 'utf8')));
      for (const [placeholder, fn] of jobs.taskFunctions) {
        const invoke = statements.filter((s) => mentions(s, logicalIdOf(fn))).flatMap(actionsOf);
        expect(invoke, `${jobType} ${placeholder}`).toEqual(used.has(placeholder) ? ['lambda:InvokeFunction'] : []);
      }
    }
  });

  it('logs errors without execution data to a log group kept a month', () => {
    for (const jobType of jobTypes) {
      const props = stateMachineProps(jobType);
      expect(props.LoggingConfiguration, jobType).toMatchObject({ Level: 'ERROR', IncludeExecutionData: false });
      const logGroupId = props.LoggingConfiguration.Destinations[0].CloudWatchLogsLogGroup.LogGroupArn['Fn::GetAtt'][0];
      expect(resourcesOf(template, 'AWS::Logs::LogGroup')[logGroupId]!.Properties).toMatchObject({ RetentionInDays: 30, LogGroupName: expect.stringMatching(/^\/aws\/vendedlogs\/states\//) });
    }
  });
});

describe('job schedules (EventBridge Scheduler)', () => {
  const graphJobs = stateless.http.handlerFunctions.get('graph-jobs')!;
  const groups = () => resourcesOf(template, 'AWS::Scheduler::ScheduleGroup');
  const groupName = () => Object.values(groups())[0]!.Properties.Name as string;

  it('one schedule group; the job-schedule function is the target Scheduler may invoke through its own role', () => {
    expect(Object.keys(groups())).toHaveLength(1);
    expect(groupName()).toBe(jobs.scheduleGroup.scheduleGroupName);
    const roleId = logicalIdOf(jobs.schedulerRole);
    const role = resourcesOf(template, 'AWS::IAM::Role')[roleId]!;
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Effect: 'Allow',
        Action: 'sts:AssumeRole',
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: {
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
          ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [Object.keys(groups())[0], 'Arn'] } },
        },
      }),
    ]);
    const statements = statementsOfRole(template, roleId);
    expect(statements.flatMap(actionsOf)).toEqual(['lambda:InvokeFunction']);
    expect(statements.every((s) => mentions(s, logicalIdOf(jobs.jobSchedule)))).toBe(true);
  });

  it('graph-jobs may create, update and delete schedules of that group only, and pass that role only, to Scheduler only', () => {
    const statements = statementsOfRole(template, roleIdOf(template, graphJobs));
    const scheduler = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('scheduler:')));
    expect(scheduler).toHaveLength(1);
    expect(actionsOf(scheduler[0]!).sort()).toEqual(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:UpdateSchedule']);
    const resource = JSON.stringify(scheduler[0]!.Resource);
    expect(resource).toContain(':schedule/');
    expect(resource).toContain(`:schedule/${groupName()}/*`);
    const passRole = statements.filter((s) => actionsOf(s).includes('iam:PassRole'));
    expect(passRole).toEqual([
      expect.objectContaining({
        Resource: { 'Fn::GetAtt': [logicalIdOf(jobs.schedulerRole), 'Arn'] },
        Condition: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    ]);
  });

  it('graph-jobs is told the group, the target and the role', () => {
    const variables = functionProps(template, graphJobs).Environment.Variables;
    expect(variables.JOB_SCHEDULE_GROUP).toBe(groupName());
    expect(variables.JOB_SCHEDULE_TARGET_ARN).toEqual({ 'Fn::GetAtt': [logicalIdOf(jobs.jobSchedule), 'Arn'] });
    expect(variables.JOB_SCHEDULE_ROLE_ARN).toEqual({ 'Fn::GetAtt': [logicalIdOf(jobs.schedulerRole), 'Arn'] });
  });
});

describe('job reaper', () => {
  it('a rule on the default bus for job executions that failed, timed out or were aborted', () => {
    const rule = resourcesOf(template, 'AWS::Events::Rule')[logicalIdOf(jobs.reaperRule)]!;
    expect(rule.Properties.EventBusName).toBeUndefined();
    expect(rule.Properties.EventPattern).toEqual({
      source: ['aws.states'],
      'detail-type': ['Step Functions Execution Status Change'],
      detail: {
        status: ['FAILED', 'TIMED_OUT', 'ABORTED'],
        stateMachineArn: jobTypes.map((t) => ({ Ref: logicalIdOf(jobs.stateMachines[t]) })),
      },
    });
    expect(rule.Properties.Targets).toEqual([
      expect.objectContaining({
        Arn: { 'Fn::GetAtt': [logicalIdOf(jobs.jobReaper), 'Arn'] },
        RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf(jobs.reaperDeadLetters), 'Arn'] } },
      }),
    ]);
  });
});
