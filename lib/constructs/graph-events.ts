import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, type IEventBus } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { GRAPH_EVENT_SOURCE } from '../../functions/adapters/aws/eventbridge-bus';
import { GRAPH_EVENT_TYPES } from '../../functions/core/graph/events/event-types';
import type { BaseFunction } from './base-function';
import { deadLetterQueue } from './dead-letter-queue';
import type { FunctionFactory } from './function-factory';

/** The stream's event source mapping (exported for the tests and the README). */
export const STREAM_SOURCE = {
  batchSize: 100,
  maxBatchingWindow: Duration.seconds(1),
  /** Retries of a failing batch (after bisecting) before its range goes to the dead-letter queue. */
  retryAttempts: 10,
  /** The stream keeps records 24 hours; an older one cannot be read again anyway. */
  maxRecordAge: Duration.days(1),
} as const;

/** How EventBridge retries delivering an event to a rule's Lambda target before its dead-letter queue. */
export const RULE_TARGET_RETRY = { retryAttempts: 8, maxEventAge: Duration.hours(2) } as const;

/** How Lambda retries an accepted asynchronous invocation (EventBridge targets) that throws, before its on-failure queue. */
export const ASYNC_INVOKE_RETRY = { retryAttempts: 2, maxEventAge: Duration.hours(6) } as const;

export interface GraphEventsProps {
  /** The table whose NEW_AND_OLD_IMAGES stream carries the record writes. */
  readonly table: ITable;
  readonly eventBus: IEventBus;
  readonly functions: FunctionFactory;
}

/**
 * The event wiring of ARCHITECTURE.md: table stream -> stream publisher -> data graph bus ->
 * rule (source GRAPH_EVENT_SOURCE, the three record event types) -> trigger dispatcher and
 * event log. Every hop retries a bounded number of times and then keeps what it could not
 * deliver in an encrypted dead-letter queue.
 */
export class GraphEvents extends Construct {
  readonly streamPublisher: BaseFunction;
  readonly triggerDispatcher: BaseFunction;
  readonly eventLog: BaseFunction;
  readonly rule: Rule;
  /** Stream batches that could not be published (the message says which shard range). */
  readonly streamDeadLetters: Queue;
  /** Events the trigger dispatcher could not take or process. */
  readonly triggerDeadLetters: Queue;
  /** Events the event log could not take or record. */
  readonly eventLogDeadLetters: Queue;

  constructor(scope: Construct, id: string, props: GraphEventsProps) {
    super(scope, id);
    const { table, eventBus, functions } = props;

    // Stream -> publisher. The handler reports the first record it could not publish
    // (ReportBatchItemFailures), so a retry starts there; a batch that throws is bisected, so a
    // record that can never be published ends alone in the dead-letter queue. One batch per
    // shard at a time keeps each item's events in order.
    this.streamDeadLetters = deadLetterQueue(this, 'StreamDeadLetters');
    this.streamPublisher = functions.create(this, 'StreamPublisherFunction', 'stream-publisher');
    this.streamPublisher.addEventSource(
      new DynamoEventSource(table, {
        // Records written before this mapping existed are published too (event ids are stable, so a replay is harmless).
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: STREAM_SOURCE.batchSize,
        maxBatchingWindow: STREAM_SOURCE.maxBatchingWindow,
        parallelizationFactor: 1,
        bisectBatchOnError: true,
        reportBatchItemFailures: true,
        retryAttempts: STREAM_SOURCE.retryAttempts,
        maxRecordAge: STREAM_SOURCE.maxRecordAge,
        onFailure: new SqsDlq(this.streamDeadLetters),
      }),
    );

    // Bus -> rule -> dispatcher and event log. EventBridge invokes Lambda asynchronously: its
    // retry policy and dead-letter queue cover delivery (throttling, a missing permission);
    // an error thrown by the function is retried by Lambda's asynchronous invocation, whose
    // on-failure destination is the same queue. Both functions are idempotent per event id.
    this.rule = new Rule(this, 'GraphEventsRule', {
      eventBus,
      description: 'Data graph record events -> trigger dispatcher and event log',
      eventPattern: { source: [GRAPH_EVENT_SOURCE], detailType: [...GRAPH_EVENT_TYPES] },
    });

    this.triggerDeadLetters = deadLetterQueue(this, 'TriggerDispatchDeadLetters');
    this.triggerDispatcher = functions.create(this, 'TriggerDispatcherFunction', 'trigger-dispatcher');
    this.eventLogDeadLetters = deadLetterQueue(this, 'EventLogDeadLetters');
    this.eventLog = functions.create(this, 'EventLogFunction', 'event-log');
    for (const [fn, queue] of [
      [this.triggerDispatcher, this.triggerDeadLetters],
      [this.eventLog, this.eventLogDeadLetters],
    ] as const) {
      this.rule.addTarget(new LambdaFunction(fn, { deadLetterQueue: queue, ...RULE_TARGET_RETRY }));
      fn.configureAsyncInvoke({ ...ASYNC_INVOKE_RETRY, onFailure: new SqsDestination(queue) });
    }
  }
}
