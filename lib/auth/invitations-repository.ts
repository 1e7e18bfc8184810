import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import type { Invitation } from './model';
import { INVITATION_ITEMS } from '../db/item-types';

import { db, tableName, type TransactItem } from '../db/client';
import { conditionally, failedConditions } from '../db/conditions';
import { withOptimisticRetries } from '../db/retry';
import { auditItems, auditItemsUndone, writeWithEntry } from '../audit/repository';
import { fieldsOf, pick, withoutNulls } from '../db/items';

import { gsi1, keys } from '../db/keys';

const FIELDS = fieldsOf<Invitation>()([
  'id',
  'tenantId',
  'email',
  'invitedBy',
  'baseAccount',
  'createdAt',
  'expiresAt',
  'expiresAtEpoch',
  'mailedAtEpoch',
  'tokenHash',
]);

const toInvitation = (item: Record<string, unknown>): Invitation => {
  const invitation = pick<Invitation>(item, FIELDS);
  return { ...invitation, baseAccount: invitation.baseAccount === true };
};

/** An invitation as stored: `baseAccount` only on a base account's (a member's has none). */
const invitationItem = ({ baseAccount, ...invitation }: Invitation) => ({
  ...keys.invitation(invitation.tenantId, invitation.email),
  type: INVITATION_ITEMS.invitation,
  ...withoutNulls(invitation),
  ...(baseAccount ? { baseAccount: true } : {}),
  ...gsi1.invitationById(invitation.id),
  ttl: invitation.expiresAtEpoch,
});

/**
 * The Put of a tenant's base-account invitation, for the transaction that creates the tenant
 * or sets its `adminEmail`: it replaces any invitation of that address into the tenant.
 */
export const baseInvitationPut = (invitation: Invitation): TransactItem => ({ Put: { TableName: tableName(), Item: invitationItem(invitation) } });

/** Take back a base-account invitation whose e-mail could not be sent (unless another replaced it). */
export async function deleteInvitationIfUnchanged(invitation: Invitation): Promise<void> {
  await conditionally(
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.invitation(invitation.tenantId, invitation.email),
        ConditionExpression: 'tokenHash = :token',
        ExpressionAttributeValues: { ':token': invitation.tokenHash },
      }),
    ),
  );
}

/** What `putInvitationUnlessPending` did: stored (with the item it replaced, if any), or kept the pending one. */
export type PutOutcome = { stored: true; replaced: Invitation | undefined } | { stored: false };

/** An invitation that still stands: unexpired, mailed after `resendAfterEpoch`, with a token (one from before tokens is replaced). */
const standing = (item: Record<string, unknown>, nowEpoch: number, resendAfterEpoch: number): boolean =>
  item.tokenHash !== undefined && Number(item.expiresAtEpoch) > nowEpoch && Number(item.mailedAtEpoch) > resendAfterEpoch;

/**
 * Store a new invitation of an e-mail into a tenant (one per e-mail and tenant), with its
 * entry, replacing the one already there only when that one no longer stands (`standing`).
 * The invitation read is the condition of the write, so of N parallel invitations of one
 * address one is stored (and mailed) and the others read it again and see it pending.
 */
export async function putInvitationUnlessPending(invitation: Invitation, nowEpoch: number, resendAfterEpoch: number, audit: AuditRecord): Promise<PutOutcome> {
  return withOptimisticRetries<PutOutcome>(async () => {
    const { Item: existing } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.invitation(invitation.tenantId, invitation.email), ConsistentRead: true }),
    );
    if (existing && standing(existing, nowEpoch, resendAfterEpoch)) return { retry: false, value: { stored: false } };
    const unchanged =
      existing === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : existing.tokenHash === undefined
          ? { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(tokenHash)' }
          : { ConditionExpression: 'tokenHash = :read', ExpressionAttributeValues: { ':read': String(existing.tokenHash) } };
    try {
      await db().send(
        new TransactWriteCommand({
          TransactItems: [{ Put: { TableName: tableName(), Item: invitationItem(invitation), ...unchanged } }, ...auditItems(audit)],
        }),
      );
    } catch (error) {
      if (failedConditions(error)?.includes(0)) return { retry: true };
      throw error;
    }
    return { retry: false, value: { stored: true, replaced: existing?.tokenHash === undefined ? undefined : toInvitation(existing) } };
  });
}

export async function getInvitation(tenantId: string, email: string): Promise<Invitation | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.invitation(tenantId, email), ConsistentRead: true }));
  return Item ? toInvitation(Item) : undefined;
}

/**
 * Take back an invitation whose e-mail could not be sent, unless another one replaced it
 * meanwhile, with its entry (nothing was invited after all): the invitation it replaced
 * comes back when that one is still pending (its token keeps working), otherwise the item is
 * deleted.
 */
export async function takeBackInvitation(invitation: Invitation, replaced: Invitation | undefined, nowEpoch: number, audit: AuditRecord): Promise<void> {
  const condition = { ConditionExpression: 'tokenHash = :token', ExpressionAttributeValues: { ':token': invitation.tokenHash } };
  const undo =
    replaced && replaced.expiresAtEpoch > nowEpoch
      ? { Put: { TableName: tableName(), Item: invitationItem(replaced), ...condition } }
      : { Delete: { TableName: tableName(), Key: keys.invitation(invitation.tenantId, invitation.email), ...condition } };
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [undo, ...auditItemsUndone(audit)] }));
  } catch (error) {
    if (!failedConditions(error)?.includes(0)) throw error;
  }
}

/** Whether an e-mail has an account anywhere in the service (its uniqueness sentinel, read consistently). */
export async function emailHasAccount(email: string): Promise<boolean> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true, ProjectionExpression: 'pk' }));
  return Item !== undefined;
}

/**
 * A page of the tenant's pending invitations (not expired), by e-mail, after the entry
 * `afterSk`: Queries of the tenant's invitation range, filtered on the expiry (an expired one
 * waits for its TTL), until the page and one more are found or the range ends.
 */
export async function listPendingInvitationPage(
  tenantId: string,
  nowEpoch: number,
  page: { limit: number; afterSk?: string },
): Promise<{ items: Invitation[]; lastSk?: string }> {
  const { pk, skPrefix } = keys.invitationsOfTenant(tenantId);
  const found: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined = page.afterSk === undefined ? undefined : { pk, sk: page.afterSk };
  do {
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'expiresAtEpoch > :now',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ':now': nowEpoch },
        ConsistentRead: true,
        Limit: page.limit + 1 - found.length,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(result.Items ?? []));
    startKey = result.LastEvaluatedKey;
  } while (startKey && found.length <= page.limit);
  const items = found.slice(0, page.limit);
  return { items: items.map(toInvitation), ...(found.length > page.limit ? { lastSk: String(items.at(-1)?.sk) } : {}) };
}

/**
 * Withdraws a pending invitation by id: found through its gsi1 entry (one Query, whatever the
 * tenant's number of invitations), then deleted on condition that it is still that invitation
 * of this tenant, pending, so its token can no longer register anyone. False when the tenant
 * has no pending invitation with that id. The index is eventually consistent: an invitation
 * made a moment ago may not be found yet (a 404; withdrawing again finds it). One stored
 * before the index entry existed cannot be withdrawn; it expires within 7 days.
 */
export async function withdrawPendingInvitation(tenantId: string, invitationId: string, nowEpoch: number, audit: AuditRecord): Promise<boolean> {
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1.invitationById(invitationId).gsi1pk },
      Limit: 1,
    }),
  );
  const found = Items[0];
  if (!found || found.tenantId !== tenantId) return false;
  return writeWithEntry(
    [
      {
        Delete: {
          TableName: tableName(),
          Key: keys.invitation(tenantId, String(found.email)),
          ConditionExpression: 'id = :id AND expiresAtEpoch > :now',
          ExpressionAttributeValues: { ':id': invitationId, ':now': nowEpoch },
        },
      },
    ],
    audit,
  );
}

/**
 * The invitations of the tenant that a user made (`invitedBy`), any state until their TTL
 * removes them: Queries of the tenant's invitation range of `pageSize` items each, filtered on
 * the inviter, reading at most `maxRead` items. `more` says the range was not read to its end.
 */
export async function listInvitationsSentBy(
  tenantId: string,
  userId: string,
  maxRead: number,
  pageSize = 100,
): Promise<{ invitations: Invitation[]; more: boolean }> {
  const { pk, skPrefix } = keys.invitationsOfTenant(tenantId);
  const found: Invitation[] = [];
  let read = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    // A Query's Limit bounds the items it reads before the filter: `read` counts them at most.
    const limit = Math.min(pageSize, maxRead - read);
    read += limit;
    const result = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        FilterExpression: 'invitedBy = :user',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix, ':user': userId },
        ConsistentRead: true,
        Limit: limit,
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(result.Items ?? []).map(toInvitation));
    startKey = result.LastEvaluatedKey;
  } while (startKey && read < maxRead);
  return { invitations: found, more: startKey !== undefined };
}
