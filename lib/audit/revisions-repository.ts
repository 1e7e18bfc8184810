import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from './model';
import { NotFound } from '../errors';
import { db, tableName, type TransactItem } from '../db/client';
import { setOrRemove } from '../db/items';
import type { Key } from '../db/keys';
import { auditItems } from './repository';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';

/** What a revised change does to an entity: what it becomes, and the attributes to write for it (null removes one). */
export interface Revision<T> {
  after: T;
  fields: Record<string, unknown>;
}

/**
 * The optimistic shape of a change that records what it replaced (a company's, a tenant's
 * profile): read the item (consistent; `missing` is the 404 when absent), let `next` compute
 * what it becomes (or throw, e.g. a 409), and write the fields with the change's audit entry
 * in one transaction. The update is conditioned on the item's `revision` (absent on an item
 * never changed: 0) being the one read and moves it on, so the entry's `before` is exactly the
 * state replaced: when another change got in between, the condition fails and the step runs
 * again on the new state.
 */
export function reviseItem<T>(
  key: Key,
  read: (item: Record<string, unknown>) => T,
  next: (before: T) => Revision<T>,
  audit: (before: T, after: T) => AuditRecord,
  missing: string,
  /**
   * Writes that belong to the change and commit with it (a tenant's base-account invitation),
   * or how to make them from the item as each attempt reads it (a company's warehouses).
   */
  alongside: TransactItem[] | ((before: T) => Promise<TransactItem[]>) = [],
): Promise<T> {
  return withOptimisticRetries<T>(async () => {
    const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
    if (!Item) throw new NotFound(missing);
    const before = read(Item);
    const revision = typeof Item.revision === 'number' ? Item.revision : 0;
    const { after, fields } = next(before);
    const update = setOrRemove({ ...fields, revision: revision + 1 });
    const along = typeof alongside === 'function' ? await alongside(before) : alongside;
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName(),
                Key: key,
                ...update,
                ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#revision) OR #revision = :read)',
                ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#revision': 'revision' },
                ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':read': revision },
              },
            },
            ...along,
            ...auditItems(audit(before, after)),
          ],
        }),
      );
      return { retry: false, value: after };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) return { retry: true };
      throw error;
    }
  });
}
