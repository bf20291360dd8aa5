import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { PARTITION_KEY, SORT_KEY } from '../functions/adapters/aws/table';
import { EVENT_LOG_TTL_ATTRIBUTE } from '../functions/core/graph/events/event-log';

/**
 * The stateful resources: what holds data and must outlive any deployment of the code (the
 * table, the files bucket) and what other systems may address by name (the event bus).
 * Deployed on its own and rarely; the stateless stack receives them through its props.
 */
export class StatefulStack extends Stack {
  /** The single table (key names shared with the adapters and the local host). Its stream feeds the stream publisher. */
  readonly table: Table;
  /** The files of the data graph's buckets (`<customer>/<bucket>/<filename>` keys). */
  readonly filesBucket: Bucket;
  /** The data graph's events (source GRAPH_EVENT_SOURCE, detail-type = event type). */
  readonly eventBus: EventBus;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // Feeds the stream publisher -> event bus -> trigger dispatcher and event log (ARCHITECTURE.md).
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      // Event log items and trigger claims expire (functions/core/graph/events/event-log.ts).
      timeToLiveAttribute: EVENT_LOG_TTL_ATTRIBUTE,
    });

    this.filesBucket = new Bucket(this, 'FilesBucket', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // A deleted or overwritten file can be recovered for 30 days (imports move files: copy + delete).
      versioned: true,
      lifecycleRules: [
        { id: 'expire-old-versions', noncurrentVersionExpiration: Duration.days(30), expiredObjectDeleteMarker: true },
        // lib-storage's multipart uploads that never completed (a function timed out mid-upload).
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.eventBus = new EventBus(this, 'EventBus', {
      description: 'Experience graph: data graph record events (DataRecordCreated, DataRecordUpdated, DataRecordRemoved)',
    });

    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table (npm run create-customer reads it)' });
    new CfnOutput(this, 'FilesBucketName', { value: this.filesBucket.bucketName, description: 'The S3 bucket of the data graph files' });
    new CfnOutput(this, 'EventBusName', { value: this.eventBus.eventBusName, description: 'The EventBridge bus of the data graph events' });
  }
}
