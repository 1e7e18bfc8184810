import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's shape, shared by the CDK stack (`infra/constructs/data.ts`) and the
 * local store (`local/dynamodb-local.ts`), so both have the same keys and indexes.
 *
 * - `pk` / `sk`: every item; partition keys start with the tenant (`TENANT#<id>...`),
 *   except the few global sentinels that must be unique across tenants (e-mails, tenant
 *   names) and the rate-limit counters.
 * - `gsi1`: `gsi1pk` / `gsi1sk`, projected ALL; today the platform-wide tenant listing.
 * - `ttl`: epoch seconds after which DynamoDB deletes the item (sessions, revoked jtis,
 *   invitations, counters). Expired items may linger up to a few days, so readers also
 *   check expiry themselves.
 * - `stream`: the table's stream carries each new item's image: the domain events written by
 *   the changes' transactions (lib/events) go from it to the webhooks' delivery.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'ttl',
  globalSecondaryIndexes: [{ indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
  stream: 'NEW_IMAGE',
} as const;

/** The CreateTable input for the local store (on-demand, like the stack). */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const { partitionKey, sortKey, globalSecondaryIndexes } = tableDefinition;
  const attributes = new Set<string>([partitionKey, sortKey]);
  for (const index of globalSecondaryIndexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' },
      { AttributeName: sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: globalSecondaryIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.stream },
  };
}
