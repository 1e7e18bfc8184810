import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent, EventType } from './model';
import { db, tableName } from '../db/client';
import { gsi1, keys } from '../db/keys';

/**
 * A page of a tenant's events, oldest first, from `fromSk` (inclusive) or after `afterSk`: one
 * Query of the tenant's event list, or with a type of that type's list on gsi1 (an event shows
 * there within about a second), for the page and one more. Only committed events exist (each
 * is written in its change's transaction).
 */
export async function readEventPage(
  tenantId: string,
  page: { fromSk: string; afterSk?: string; type?: EventType; limit: number },
): Promise<{ items: DomainEvent[]; lastSk?: string }> {
  const { pk } = keys.eventsOf(tenantId);
  const byType = page.type === undefined ? undefined : gsi1.eventsOfType(tenantId, page.type).gsi1pk;
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      ...(byType === undefined
        ? { KeyConditionExpression: 'pk = :pk AND sk >= :from', ExpressionAttributeValues: { ':pk': pk, ':from': page.fromSk }, ConsistentRead: true }
        : {
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :from',
            ExpressionAttributeValues: { ':pk': byType, ':from': page.fromSk },
          }),
      Limit: page.limit + 1,
      ...(page.afterSk === undefined
        ? {}
        : { ExclusiveStartKey: byType === undefined ? { pk, sk: page.afterSk } : { pk, sk: page.afterSk, gsi1pk: byType, gsi1sk: page.afterSk } }),
    }),
  );
  const items = Items.slice(0, page.limit);
  return { items: items.map((item) => item.event as DomainEvent), ...(Items.length > page.limit ? { lastSk: String(items.at(-1)?.sk) } : {}) };
}
