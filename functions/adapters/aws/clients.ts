import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { S3Client } from '@aws-sdk/client-s3';

/**
 * SDK clients made once per Lambda execution environment (module scope), so that
 * connections are reused across invocations. Region and credentials come from the
 * Lambda environment.
 */
export const documentClient: DynamoDBDocumentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

/** The S3 client of the data graph's buckets (`S3BlobStore`). */
export const s3Client: S3Client = new S3Client({});

/** The EventBridge client, for the EventBridgeBus (region from the Lambda environment). */
export const eventBridgeClient: EventBridgeClient = new EventBridgeClient({});

import { SFNClient } from '@aws-sdk/client-sfn';

/** The Step Functions client, for the StepFunctionsRunner (region from the Lambda environment). */
export const sfnClient: SFNClient = new SFNClient({});
