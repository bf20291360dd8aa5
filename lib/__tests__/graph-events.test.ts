import { describe, expect, it } from 'vitest';
import { GRAPH_EVENT_SOURCE } from '../../functions/adapters/aws/eventbridge-bus';
import { GRAPH_EVENT_TYPES } from '../../functions/core/graph/events/event-types';
import { actionsOf, functionProps, logicalIdOf, mentions, resourcesOf, roleIdOf, statementsOfRole, synthesized } from './synth';

const { stateful, stateless, statelessTemplate: template } = synthesized();
const events = stateless.events;
const tableId = logicalIdOf(stateful.table);
const busId = logicalIdOf(stateful.eventBus);

describe('event wiring: table stream -> stream publisher', () => {
  it('one event source mapping, on the table stream, to the stream publisher', () => {
    template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    const [mapping] = Object.values(resourcesOf(template, 'AWS::Lambda::EventSourceMapping'));
    expect(JSON.stringify(mapping!.Properties.EventSourceArn)).toContain(tableId);
    expect(mapping!.Properties.FunctionName).toEqual({ Ref: logicalIdOf(events.streamPublisher) });
  });

  it('bisects failing batches, honours ReportBatchItemFailures, retries a bounded number of times, then the dead-letter queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      ParallelizationFactor: 1,
      BisectBatchOnFunctionError: true,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 86400,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(events.streamDeadLetters), 'Arn'] } } },
    });
  });

  it('the stream publisher may read the stream, send to its dead-letter queue and put events on the bus', () => {
    const statements = statementsOfRole(template, roleIdOf(template, events.streamPublisher));
    const onStream = statements.filter((s) => mentions(s, tableId)).flatMap(actionsOf);
    expect(onStream.sort()).toEqual(['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator']);
    expect(statements.filter((s) => mentions(s, busId)).flatMap(actionsOf)).toEqual(['events:PutEvents']);
    expect(statements.filter((s) => mentions(s, logicalIdOf(events.streamDeadLetters))).flatMap(actionsOf)).toContain('sqs:SendMessage');
    expect(functionProps(template, events.streamPublisher).Environment.Variables.EVENT_BUS_NAME).toEqual({ 'Fn::ImportValue': expect.stringContaining(busId) });
  });
});

describe('event wiring: bus -> rule -> trigger dispatcher and event log', () => {
  it('one rule on the data graph bus matching the source and the three record event types', () => {
    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).filter((r) => r.Properties.EventBusName !== undefined);
    expect(rules).toHaveLength(1);
    expect(JSON.stringify(rules[0]!.Properties.EventBusName)).toContain(busId);
    expect(rules[0]!.Properties.EventPattern).toEqual({ source: [GRAPH_EVENT_SOURCE], 'detail-type': [...GRAPH_EVENT_TYPES] });
    expect(GRAPH_EVENT_TYPES).toEqual(['DataRecordCreated', 'DataRecordUpdated', 'DataRecordRemoved']);
  });

  it('targets the trigger dispatcher and the event log, each with a retry policy and its dead-letter queue', () => {
    const rule = resourcesOf(template, 'AWS::Events::Rule')[logicalIdOf(events.rule)]!;
    const targets = rule.Properties.Targets as Record<string, any>[];
    expect(targets).toHaveLength(2);
    for (const [fn, queue] of [
      [events.triggerDispatcher, events.triggerDeadLetters],
      [events.eventLog, events.eventLogDeadLetters],
    ] as const) {
      expect(targets).toContainEqual(
        expect.objectContaining({
          Arn: { 'Fn::GetAtt': [logicalIdOf(fn), 'Arn'] },
          RetryPolicy: { MaximumRetryAttempts: 8, MaximumEventAgeInSeconds: 7200 },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [logicalIdOf(queue), 'Arn'] } },
        }),
      );
    }
  });

  it('an error thrown by a target function is retried by Lambda twice, then lands in the same dead-letter queue', () => {
    const configs = Object.values(resourcesOf(template, 'AWS::Lambda::EventInvokeConfig'));
    for (const [fn, queue] of [
      [events.triggerDispatcher, events.triggerDeadLetters],
      [events.eventLog, events.eventLogDeadLetters],
    ] as const) {
      const config = configs.find((c) => c.Properties.FunctionName.Ref === logicalIdOf(fn));
      expect(config?.Properties).toMatchObject({
        MaximumRetryAttempts: 2,
        MaximumEventAgeInSeconds: 21600,
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [logicalIdOf(queue), 'Arn'] } } },
      });
    }
  });

  it('EventBridge may send to each target dead-letter queue only from its rule', () => {
    for (const queue of [events.triggerDeadLetters, events.eventLogDeadLetters]) {
      const policy = Object.values(resourcesOf(template, 'AWS::SQS::QueuePolicy')).find((p) => JSON.stringify(p.Properties.Queues).includes(logicalIdOf(queue)))!;
      const statements = policy.Properties.PolicyDocument.Statement as Record<string, any>[];
      expect(statements).toContainEqual(
        expect.objectContaining({
          Effect: 'Allow',
          Action: 'sqs:SendMessage',
          Principal: { Service: 'events.amazonaws.com' },
          Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [logicalIdOf(events.rule), 'Arn'] } } },
        }),
      );
    }
  });
});

describe('dead-letter queues', () => {
  it('are encrypted, TLS only, and keep messages 14 days', () => {
    const queues = resourcesOf(template, 'AWS::SQS::Queue');
    expect(Object.keys(queues)).toHaveLength(4);
    for (const [id, queue] of Object.entries(queues)) {
      expect(queue.Properties, id).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 1209600 });
      const policy = Object.values(resourcesOf(template, 'AWS::SQS::QueuePolicy')).find((p) => JSON.stringify(p.Properties.Queues).includes(id))!;
      expect(policy.Properties.PolicyDocument.Statement, id).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });
});
