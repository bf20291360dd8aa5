import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** How long a dead letter waits to be looked at (SQS's maximum). */
export const DEAD_LETTER_RETENTION = Duration.days(14);

/**
 * A dead-letter queue: encrypted with SQS-managed keys, TLS only, messages kept 14 days.
 * What lands here is what could not be delivered after every retry; nothing reads it
 * automatically (see lib/README.md "Dead letters").
 */
export function deadLetterQueue(scope: Construct, id: string): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: DEAD_LETTER_RETENTION,
  });
}
