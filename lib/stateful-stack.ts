import { RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { PARTITION_KEY, SORT_KEY } from '../functions/adapters/aws/table';

/**
 * The stateful resources: what holds data and must outlive any deployment of the code.
 * Deployed on its own and rarely; the API stack receives the table through its props.
 */
export class StatefulStack extends Stack {
  /** The single table (key names shared with the adapters and the local host). */
  readonly table: ITable;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
      sortKey: { name: SORT_KEY, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      // Feeds the stream publisher -> event bus -> trigger dispatcher (ARCHITECTURE.md).
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
  }
}
