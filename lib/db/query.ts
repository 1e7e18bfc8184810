import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';

/**
 * Every item of a partition, or of its `skPrefix` range, following the pagination to the
 * end (DynamoDB returns at most 1 MB a page).
 */
export async function queryAll(pk: string, options: { skPrefix?: string; consistent?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: options.skPrefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
        ExpressionAttributeValues: options.skPrefix ? { ':pk': pk, ':prefix': options.skPrefix } : { ':pk': pk },
        ConsistentRead: options.consistent ?? false,
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/**
 * One page of a partition (or of its `skPrefix` range) in key order, after the item whose
 * sort key is `afterSk`: one Query that asks for one item more than the page, so `more` is
 * true only when another item follows (a last page is never followed by an empty one).
 * Items above DynamoDB's 1 MB a response are not a concern: callers keep pages small.
 */
export async function queryPage(
  pk: string,
  options: { skPrefix?: string; limit: number; afterSk?: string; consistent?: boolean },
): Promise<{ items: Record<string, unknown>[]; more: boolean }> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: options.skPrefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
      ExpressionAttributeValues: options.skPrefix ? { ':pk': pk, ':prefix': options.skPrefix } : { ':pk': pk },
      Limit: options.limit + 1,
      ...(options.consistent ? { ConsistentRead: true } : {}),
      ...(options.afterSk === undefined ? {} : { ExclusiveStartKey: { pk, sk: options.afterSk } }),
    }),
  );
  return { items: Items.slice(0, options.limit), more: Items.length > options.limit };
}

/**
 * A page of a time-ordered list (sort keys `occurredAt#id`), newest first, within `[fromSk,
 * toSk]`, after the entry `afterSk`: one consistent Query, one item past the page to know
 * whether another follows (the stock history and the transfers).
 */
export async function queryNewestFirst(
  pk: string,
  request: { fromSk: string; toSk: string; limit: number; afterSk?: string | undefined },
): Promise<{ items: Record<string, unknown>[]; nextSk?: string }> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': request.fromSk, ':to': request.toSk },
      ScanIndexForward: false,
      ConsistentRead: true,
      Limit: request.limit + 1,
      ...(request.afterSk ? { ExclusiveStartKey: { pk, sk: request.afterSk } } : {}),
    }),
  );
  const items = Items.slice(0, request.limit);
  return { items, ...(Items.length > request.limit ? { nextSk: items.at(-1)?.sk as string } : {}) };
}
