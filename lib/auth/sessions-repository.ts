import { DeleteCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import type { Session, User } from './model';
import { db, tableName, type TransactItem } from '../db/client';
import { failedConditions, isConditionFailure } from '../db/conditions';
import { SESSION_ITEMS } from '../db/item-types';
import { keys } from '../db/keys';
import { auditItems } from '../audit/repository';
import { completionItems, keyTakenOver, type KeyCompletion } from '../idempotency/repository';
import { credentialsCheck, sessionPut, toSession } from './items';

export type { Session };
export { listSessionsOfUser, sessionPut, toSession } from './items';

/** A session alone, without an entry: for the benchmarks and tests that need a signed-in user, never for a route. */
export async function insertSession(session: Session): Promise<void> {
  await db().send(new PutCommand(sessionPut(session).Put as ConstructorParameters<typeof PutCommand>[0]));
}

/**
 * Rotate the refresh token: succeeds for exactly one caller presenting the current jti of
 * an active session (conditional write), so parallel refreshes have a single winner, and only
 * while the user's credential version is still the one the refresh read (a reset that commits
 * first ends it). The entry commits with the rotation.
 */
export async function rotateRefreshJti(
  session: Session,
  user: Pick<User, 'tenantId' | 'id' | 'credentialVersion'>,
  presentedJti: string,
  nextJti: string,
  now: string,
  audit: AuditRecord,
): Promise<'rotated' | 'lost-race' | 'credentials-changed'> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [rotation(session, presentedJti, nextJti, now), credentialsCheck(user), ...auditItems(audit)] }));
    return 'rotated';
  } catch (error) {
    const failed = failedConditions(error);
    if (!failed) throw error;
    return failed.includes(1) ? 'credentials-changed' : 'lost-race';
  }
}

function rotation(session: Session, presentedJti: string, nextJti: string, now: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.session(session.tenantId, session.userId, session.id),
      UpdateExpression: 'SET refreshJti = :next, previousRefreshJti = :presented, rotatedAt = :now, lastActiveAt = :now',
      ConditionExpression: 'refreshJti = :presented AND #status = :active',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':next': nextJti, ':presented': presentedJti, ':now': now, ':active': 'ACTIVE' },
    },
  };
}

function revokeUpdate(session: Pick<Session, 'tenantId' | 'userId' | 'id'>, now: string): TransactItem & { Update: object } {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.session(session.tenantId, session.userId, session.id),
      UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':revoked': 'REVOKED', ':now': now },
    },
  };
}

/** Revoke a session (refresh-token reuse), with its entry. A missing session is left alone. */
export async function revokeSession(session: Pick<Session, 'tenantId' | 'userId' | 'id'>, now: string, audit: AuditRecord): Promise<void> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [revokeUpdate(session, now), ...auditItems(audit)] }));
  } catch (error) {
    if (!failedConditions(error)?.includes(0)) throw error;
  }
}

/**
 * Logout: revoke the session and blacklist the access token's jti until it expires, in one
 * transaction, so both old tokens get 401 on the next request.
 */
export async function revokeSessionAndJti(
  ids: { tenantId: string; userId: string; sessionId: string; jti: string; jtiExpiresAt: number },
  now: string,
  audit: AuditRecord,
): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        revokeUpdate({ tenantId: ids.tenantId, userId: ids.userId, id: ids.sessionId }, now),
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.revokedJti(ids.tenantId, ids.userId, ids.jti), type: SESSION_ITEMS.revokedJti, revokedAt: now, ttl: ids.jtiExpiresAt },
          },
        },
        ...auditItems(audit),
      ],
    }),
  );
}

/** The user's credential state a live session is judged against (lib/auth/session-state). */
export type CredentialState = Pick<User, 'credentialVersion' | 'sessionsValidFrom'>;

/**
 * The revocation of one session, only while it is live: the same rule as isSessionLive
 * (active, unexpired, opened at the user's credential version, or for a session older than
 * versions, not before `sessionsValidFrom`).
 */
function liveRevokeUpdate(ids: { tenantId: string; userId: string; sessionId: string }, now: string, user: CredentialState): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: keys.session(ids.tenantId, ids.userId, ids.sessionId),
      UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
      ConditionExpression:
        'attribute_exists(pk) AND #status = :active AND expiresAt > :now AND (credentialVersion = :version OR (attribute_not_exists(credentialVersion) AND createdAt >= :validFrom))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':revoked': 'REVOKED',
        ':active': 'ACTIVE',
        ':now': now,
        ':version': user.credentialVersion,
        ':validFrom': user.sessionsValidFrom ?? '',
      },
    },
  };
}

/**
 * Revoke one of the user's own sessions, if it is still live, with its entry; false when
 * there is no such live session (the caller answers 404).
 */
export async function revokeActiveSession(
  ids: { tenantId: string; userId: string; sessionId: string },
  now: string,
  user: CredentialState,
  audit: AuditRecord,
  key?: KeyCompletion,
): Promise<boolean> {
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [liveRevokeUpdate(ids, now, user), ...completionItems(key), ...auditItems(audit)] }));
    return true;
  } catch (error) {
    if (key) keyTakenOver(error, 1);
    if (failedConditions(error)?.includes(0)) return false;
    throw error;
  }
}

/** How many sessions one transaction revokes beside the entry's (at most) three puts: DynamoDB takes 100 items. */
export const SESSIONS_PER_REVOCATION = 97;

/**
 * Revoke these live sessions of one user in one transaction (at most
 * SESSIONS_PER_REVOCATION), with the entry that records the revocation: a revocation of more
 * sessions than one transaction takes writes its entry with its first batch (`null` for the
 * others). False when one of them ended meanwhile: nothing was written, and the caller reads
 * the sessions again.
 */
export async function revokeLiveSessions(
  tenantId: string,
  userId: string,
  sessionIds: string[],
  now: string,
  user: CredentialState,
  audit: AuditRecord | null,
): Promise<boolean> {
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [...sessionIds.map((sessionId) => liveRevokeUpdate({ tenantId, userId, sessionId }, now, user)), ...(audit ? auditItems(audit) : [])],
      }),
    );
    return true;
  } catch (error) {
    if (failedConditions(error)?.some((index) => index < sessionIds.length)) return false;
    throw error;
  }
}

/**
 * Move `lastActiveAt` forward, at most once per `staleBefore` window: the condition makes
 * concurrent requests write it once. Only this attribute is written (the authorizer's grant
 * is limited to it).
 */
export async function touchSession(session: Pick<Session, 'tenantId' | 'userId' | 'id'>, now: string, staleBefore: string): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(session.tenantId, session.userId, session.id),
        UpdateExpression: 'SET lastActiveAt = :now',
        ConditionExpression: 'lastActiveAt < :stale',
        ExpressionAttributeValues: { ':now': now, ':stale': staleBefore },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * The user's session items (any status), at most `max`: Queries of `pageSize` items each,
 * following the pages until the range ends or `max` are read. `more` says the range held more.
 */
export async function listSessionsOfUserBounded(
  tenantId: string,
  userId: string,
  max: number,
  pageSize = 100,
): Promise<{ sessions: Session[]; more: boolean }> {
  const { pk, skPrefix } = keys.sessionsOfUser(tenantId, userId);
  const found: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ConsistentRead: true,
        Limit: Math.min(pageSize, max + 1 - found.length),
        ExclusiveStartKey: startKey,
      }),
    );
    found.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && found.length <= max);
  return { sessions: found.slice(0, max).map(toSession), more: found.length > max || startKey !== undefined };
}

/**
 * Deletes up to `max` items of a removed user's own partition (sessions, blacklisted jtis,
 * Idempotency-Key records: lib/db/keys `userPartition`), one page of `pageSize` at a time, one
 * DeleteItem each. Only for a user whose item is gone: the caller checks. `more` says some are left.
 */
export async function deleteItemsOfRemovedUser(tenantId: string, userId: string, max: number, pageSize = 100): Promise<{ deleted: number; more: boolean }> {
  const { pk } = keys.userPartition(tenantId, userId);
  let deleted = 0;
  for (;;) {
    const limit = Math.min(pageSize, max - deleted);
    if (limit <= 0) break;
    const { Items = [], LastEvaluatedKey } = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
        Limit: limit,
      }),
    );
    for (const item of Items) await db().send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk as string, sk: item.sk as string } }));
    deleted += Items.length;
    if (!LastEvaluatedKey) return { deleted, more: false };
  }
  const { Items = [] } = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'pk',
      ConsistentRead: true,
      Limit: 1,
    }),
  );
  return { deleted, more: Items.length > 0 };
}
