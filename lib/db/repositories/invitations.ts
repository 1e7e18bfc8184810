import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Invitation } from '../../auth/model';
import { INVITATION_ITEMS } from '../item-types';

import { db, tableName } from '../client';
import { isConditionFailure } from '../conditions';
import { fieldsOf, pick } from '../items';
import { gsi1, keys } from '../keys';

const FIELDS = fieldsOf<Invitation>()(['id', 'tenantId', 'email', 'invitedBy', 'createdAt', 'expiresAt', 'expiresAtEpoch', 'mailedAtEpoch', 'tokenHash']);

const toInvitation = (item: Record<string, unknown>): Invitation => pick<Invitation>(item, FIELDS);

const invitationItem = (invitation: Invitation) => ({
  ...keys.invitation(invitation.tenantId, invitation.email),
  type: INVITATION_ITEMS.invitation,
  ...invitation,
  ...gsi1.invitationById(invitation.id),
  ttl: invitation.expiresAtEpoch,
});

/** What `putInvitationUnlessPending` did: stored (with the item it replaced, if any), or kept the pending one. */
export type PutOutcome = { stored: true; replaced: Invitation | undefined } | { stored: false };

/**
 * Store a new invitation of an e-mail into a tenant (one per e-mail and tenant), replacing
 * the one already there only when that one is expired or was mailed at or before
 * `resendAfterEpoch` (or predates invitation tokens). One conditional write: of N parallel
 * invitations of one address, one is stored (and mailed) and the others see it.
 */
export async function putInvitationUnlessPending(invitation: Invitation, nowEpoch: number, resendAfterEpoch: number): Promise<PutOutcome> {
  try {
    const { Attributes } = await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: invitationItem(invitation),
        ConditionExpression: 'attribute_not_exists(pk) OR attribute_not_exists(tokenHash) OR expiresAtEpoch <= :now OR mailedAtEpoch <= :resendAfter',
        ExpressionAttributeValues: { ':now': nowEpoch, ':resendAfter': resendAfterEpoch },
        ReturnValues: 'ALL_OLD',
      }),
    );
    return { stored: true, replaced: Attributes?.tokenHash === undefined ? undefined : toInvitation(Attributes) };
  } catch (error) {
    if (isConditionFailure(error)) return { stored: false };
    throw error;
  }
}

export async function getInvitation(tenantId: string, email: string): Promise<Invitation | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.invitation(tenantId, email), ConsistentRead: true }));
  return Item ? toInvitation(Item) : undefined;
}

/**
 * Take back an invitation whose e-mail could not be sent, unless another one replaced it
 * meanwhile: the invitation it replaced comes back when that one is still pending (its
 * token keeps working), otherwise the item is deleted.
 */
export async function takeBackInvitation(invitation: Invitation, replaced: Invitation | undefined, nowEpoch: number): Promise<void> {
  const condition = { ConditionExpression: 'tokenHash = :token', ExpressionAttributeValues: { ':token': invitation.tokenHash } };
  try {
    if (replaced && replaced.expiresAtEpoch > nowEpoch) {
      await db().send(new PutCommand({ TableName: tableName(), Item: invitationItem(replaced), ...condition }));
    } else {
      await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.invitation(invitation.tenantId, invitation.email), ...condition }));
    }
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Whether an e-mail has an account anywhere in the service (its uniqueness sentinel, read consistently). */
export async function emailHasAccount(email: string): Promise<boolean> {
  const { Item } = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.email(email), ConsistentRead: true, ProjectionExpression: 'pk' }),
  );
  return Item !== undefined;
}

/**
 * A page of the tenant's pending invitations (not expired), by e-mail, after the entry
 * `afterSk`: Queries of the tenant's invitation range, filtered on the expiry (an expired one
 * waits for its TTL), until the page and one more are found or the range ends.
 */
export async function listPendingInvitationPage(tenantId: string, nowEpoch: number, page: { limit: number; afterSk?: string }): Promise<{ items: Invitation[]; lastSk?: string }> {
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
export async function withdrawPendingInvitation(tenantId: string, invitationId: string, nowEpoch: number): Promise<boolean> {
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
  try {
    await db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: keys.invitation(tenantId, String(found.email)),
        ConditionExpression: 'id = :id AND expiresAtEpoch > :now',
        ExpressionAttributeValues: { ':id': invitationId, ':now': nowEpoch },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
