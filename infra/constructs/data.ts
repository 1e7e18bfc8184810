import { type RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, StreamViewType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { tableDefinition } from '../../lib/db/table';

export interface DataProps {
  removalPolicy: RemovalPolicy;
  deletionProtection: boolean;
}

/**
 * The service's single DynamoDB table, built from the same definition as the local store
 * (`lib/db/table.ts`) so both always have the same keys, indexes and TTL attribute.
 *
 * No physical name: CloudFormation generates one and the functions receive it as TABLE_NAME.
 */
export class Data extends Construct {
  readonly table: TableV2;

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    const { partitionKey, sortKey, ttlAttribute, globalSecondaryIndexes } = tableDefinition;

    this.table = new TableV2(this, 'Table', {
      partitionKey: { name: partitionKey, type: AttributeType.STRING },
      sortKey: { name: sortKey, type: AttributeType.STRING },
      globalSecondaryIndexes: globalSecondaryIndexes.map((index) => ({
        indexName: index.indexName,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      })),
      timeToLiveAttribute: ttlAttribute,
      // Each new item's image: the domain events the webhook pipe forwards (infra/constructs/webhooks.ts).
      dynamoStream: StreamViewType[tableDefinition.stream],
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: props.deletionProtection,
      removalPolicy: props.removalPolicy,
    });
  }
}
