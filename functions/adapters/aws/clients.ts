import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * SDK clients made once per Lambda execution environment (module scope), so that
 * connections are reused across invocations. Region and credentials come from the
 * Lambda environment.
 */
export const documentClient: DynamoDBDocumentClient = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});

// The other services' clients are made by their adapters on first use (see lazy-sdk.ts).
