import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's key schema, as data: read by the CDK stack (lib/) and by the local
 * host (adapters/local/local-dynamo.ts), so that both create the same table.
 *
 * Global secondary indexes: none yet. When one is needed, add its key attributes to
 * `TABLE_ATTRIBUTES` and a `GlobalSecondaryIndexes` entry in `createTableInput` (and the
 * same index in the CDK stack from the same constants). Note that the local host only
 * creates the table when it is missing, so a persisted local table will not gain a new
 * index by itself (add an UpdateTable step or delete the data dir).
 */

/** Partition key attribute (string). */
export const PARTITION_KEY = 'pk' as const;
/** Sort key attribute (string). */
export const SORT_KEY = 'sk' as const;

/** DynamoDB scalar attribute type of both keys ('S' = string; CDK's AttributeType.STRING). */
export const KEY_ATTRIBUTE_TYPE = 'S' as const;

/** Billing mode of the table (CDK's BillingMode.PAY_PER_REQUEST). */
export const BILLING_MODE = 'PAY_PER_REQUEST' as const;

/** Every key attribute of the table and its indexes, with its type. */
export const TABLE_ATTRIBUTES = [
  { AttributeName: PARTITION_KEY, AttributeType: KEY_ATTRIBUTE_TYPE },
  { AttributeName: SORT_KEY, AttributeType: KEY_ATTRIBUTE_TYPE },
] as const;

/** The base table's key schema. */
export const TABLE_KEY_SCHEMA = [
  { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
  { AttributeName: SORT_KEY, KeyType: 'RANGE' },
] as const;

/** The CreateTable request for the single table (used by the local host and by tests). */
export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    AttributeDefinitions: TABLE_ATTRIBUTES.map((a) => ({ ...a })),
    KeySchema: TABLE_KEY_SCHEMA.map((k) => ({ ...k })),
    BillingMode: BILLING_MODE,
    // GlobalSecondaryIndexes: none yet (see the note at the top of this file).
  };
}
