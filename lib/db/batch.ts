import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client';

/** Several items by key, consistent, in order; missing ones are undefined. A key given twice is read once (DynamoDB refuses a batch that repeats one). */
export async function getMany(keyList: { pk: string; sk: string }[]): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  const unique = [...new Map(keyList.map((key) => [`${key.pk}|${key.sk}`, { pk: key.pk, sk: key.sk }])).values()];
  for (let start = 0; start < unique.length; start += 100) {
    let pending = unique.slice(start, start + 100);
    for (let attempt = 0; pending.length > 0 && attempt < 5; attempt += 1) {
      const result = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[tableName()] ?? []) found.set(`${String(item.pk)}|${String(item.sk)}`, item);
      pending = (result.UnprocessedKeys?.[tableName()]?.Keys as { pk: string; sk: string }[] | undefined) ?? [];
    }
    if (pending.length > 0) throw Object.assign(new Error('Unprocessed keys after retries'), { name: 'ThrottlingException' });
  }
  return keyList.map((key) => found.get(`${key.pk}|${key.sk}`));
}
