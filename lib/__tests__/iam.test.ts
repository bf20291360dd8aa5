import { describe, expect, it } from 'vitest';
import { actionsOf, resourcesOf, synthesized, type Statement } from './synth';

const { statelessTemplate: stateless, statefulTemplate: stateful } = synthesized();

/** Every statement of every identity policy of both stacks. */
const statements = [stateless, stateful].flatMap((t) =>
  Object.values(resourcesOf(t, 'AWS::IAM::Policy')).flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]),
);

/** Actions on data: what reads or changes the table, the files, the bus, the queues, the jobs and the schedules. */
const DATA_SERVICES = /^(dynamodb|s3|events|sqs|states|scheduler|lambda):/;

/** Actions AWS only allows on `*` (no resource-level permission): tracing, log delivery, listing streams. */
const ONLY_ON_ANY_RESOURCE = new Set([
  'xray:PutTraceSegments',
  'xray:PutTelemetryRecords',
  'xray:GetSamplingRules',
  'xray:GetSamplingTargets',
  'logs:CreateLogDelivery',
  'logs:GetLogDelivery',
  'logs:UpdateLogDelivery',
  'logs:DeleteLogDelivery',
  'logs:ListLogDeliveries',
  'logs:PutResourcePolicy',
  'logs:DescribeResourcePolicies',
  'logs:DescribeLogGroups',
  'dynamodb:ListStreams',
]);

describe('IAM: least privilege', () => {
  it('has policies to check', () => {
    expect(statements.length).toBeGreaterThan(20);
  });

  it('grants no wildcard action (*, service:*, or a family such as s3:GetObject*)', () => {
    for (const statement of statements) {
      for (const action of actionsOf(statement)) expect(action, JSON.stringify(statement)).not.toContain('*');
    }
  });

  it('allows only (never denies through identity policies), so nothing relies on a deny to be safe', () => {
    for (const statement of statements) expect(statement.Effect).toBe('Allow');
  });

  it('grants data actions on named resources only, never on "*"', () => {
    for (const statement of statements) {
      const onAny = [statement.Resource].flat().includes('*');
      if (!onAny) continue;
      for (const action of actionsOf(statement)) {
        expect(ONLY_ON_ANY_RESOURCE.has(action), `${action} on *`).toBe(true);
        expect(DATA_SERVICES.test(action) && action !== 'dynamodb:ListStreams', `${action} on *`).toBe(false);
      }
    }
  });

  it('object permissions on the files bucket are for its objects, listing for the bucket itself', () => {
    for (const statement of statements.filter((s) => actionsOf(s).some((a) => a.startsWith('s3:')))) {
      const resource = JSON.stringify(statement.Resource);
      if (actionsOf(statement).includes('s3:ListBucket')) {
        expect(actionsOf(statement)).toEqual(['s3:ListBucket']);
        expect(resource).not.toContain('/*');
      } else {
        expect(resource).toContain('/*');
      }
    }
  });
});
