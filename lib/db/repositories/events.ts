import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent, EventType } from '../../events/model';
import { db, tableName } from '../client';
import { keys } from '../keys';

/** Items one page may read looking for events of one type before it answers short (with a cursor). */
const MAX_READ_PER_PAGE = 1_000;

/**
 * A page of a tenant's events, oldest first, from `fromSk` (inclusive) or after `afterSk`:
 * Queries of the tenant's event list, filtered on the type when one is asked, until the page
 * and one more are found, the list ends, or MAX_READ_PER_PAGE items were read (then a short
 * page, and `lastSk` where the reading stopped). Written events only are read (the writes are
 * transactions, so a page never shows an event whose change did not commit).
 */
export async function readEventPage(tenantId: string, page: { fromSk: string; afterSk?: string; type?: EventType; limit: number }): Promise<{ items: DomainEvent[]; lastSk?: string }> {
  const { pk } = keys.eventsOf(tenantId);
  const found: Record<string, unknown>[] = [];
  let read = 0;
  let startKey: Record<string, unknown> | undefined = page.afterSk === undefined ? undefined : { pk, sk: page.afterSk };
  let lastReadSk: string | undefined;
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND sk >= :from',
        ...(page.type === undefined ? {} : { FilterExpression: '#event.#type = :type', ExpressionAttributeNames: { '#event': 'event', '#type': 'type' } }),
        ExpressionAttributeValues: { ':pk': pk, ':from': page.fromSk, ...(page.type === undefined ? {} : { ':type': page.type }) },
        ConsistentRead: true,
        // Without a filter, exactly what the page needs; with one, chunks of what the budget leaves.
        Limit: page.type === undefined ? page.limit + 1 - found.length : Math.min(200, MAX_READ_PER_PAGE - read),
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(result.Items ?? []));
    read += result.ScannedCount ?? 0;
    startKey = result.LastEvaluatedKey;
    if (startKey) lastReadSk = String(startKey.sk);
  } while (startKey && found.length <= page.limit && read < MAX_READ_PER_PAGE);
  const items = found.slice(0, page.limit);
  const more = found.length > page.limit ? String(items.at(-1)?.sk) : startKey ? lastReadSk : undefined;
  return { items: items.map((item) => item.event as DomainEvent), ...(more === undefined ? {} : { lastSk: more }) };
}
