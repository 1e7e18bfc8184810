import {
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Session } from '../../auth/model';
import { db, tableName } from '../client';
import { conditionally, failedConditions, isConditionFailure } from '../conditions';
import { epochSeconds, fieldsOf, pick, withoutNulls } from '../items';
import { SESSION_ITEMS } from '../item-types';
import { keys } from '../keys';
import { queryAll } from '../query';
import { completionItems, keyTakenOver, type KeyCompletion } from './idempotency';

export type { Session };

const FIELDS = fieldsOf<Session>()([
  'id', 'tenantId', 'userId', 'status', 'rememberMe', 'createdAt', 'lastActiveAt', 'expiresAt', 'ipAddress', 'userAgent',
  'refreshJti', 'previousRefreshJti', 'rotatedAt', 'revokedAt',
]);

export const toSession = (item: Record<string, unknown>): Session => pick<Session>(item, FIELDS);

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The Put of a new session, for a transaction (registration) or alone (login). */
export function sessionPut(session: Session): TransactItem & { Put: object } {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...keys.session(session.tenantId, session.userId, session.id), type: SESSION_ITEMS.session, ...withoutNulls(session), ttl: epochSeconds(session.expiresAt) },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export async function insertSession(session: Session): Promise<void> {
  await db().send(new PutCommand(sessionPut(session).Put as ConstructorParameters<typeof PutCommand>[0]));
}

/**
 * Rotate the refresh token: succeeds for exactly one caller presenting the current jti of
 * an active session (conditional write), so parallel refreshes have a single winner.
 */
export async function rotateRefreshJti(session: Session, presentedJti: string, nextJti: string, now: string): Promise<boolean> {
  return conditionally(
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.session(session.tenantId, session.userId, session.id),
        UpdateExpression: 'SET refreshJti = :next, previousRefreshJti = :presented, rotatedAt = :now, lastActiveAt = :now',
        ConditionExpression: 'refreshJti = :presented AND #status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':next': nextJti, ':presented': presentedJti, ':now': now, ':active': 'ACTIVE' },
      }),
    ),
  );
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

/** Revoke a session (reuse detection, session revocation). Missing sessions are ignored. */
export async function revokeSession(session: Pick<Session, 'tenantId' | 'userId' | 'id'>, now: string): Promise<void> {
  try {
    await db().send(new UpdateCommand(revokeUpdate(session, now).Update as ConstructorParameters<typeof UpdateCommand>[0]));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Logout: revoke the session and blacklist the access token's jti until it expires, in one
 * transaction, so both old tokens get 401 on the next request.
 */
export async function revokeSessionAndJti(
  ids: { tenantId: string; userId: string; sessionId: string; jti: string; jtiExpiresAt: number },
  now: string,
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
      ],
    }),
  );
}

/** Every session item of a user (any status), following the pagination. */
export async function listSessionsOfUser(tenantId: string, userId: string): Promise<Session[]> {
  const { pk, skPrefix } = keys.sessionsOfUser(tenantId, userId);
  return (await queryAll(pk, { skPrefix, consistent: true })).map(toSession);
}

/**
 * Revoke one of the user's own sessions, if it is still active; false when there is no
 * such active session (the caller answers 404).
 */
export async function revokeActiveSession(
  ids: { tenantId: string; userId: string; sessionId: string },
  now: string,
  sessionsValidFrom: string | null,
  key?: KeyCompletion,
): Promise<boolean> {
  const revoke = {
    TableName: tableName(),
    Key: keys.session(ids.tenantId, ids.userId, ids.sessionId),
    UpdateExpression: 'SET #status = :revoked, revokedAt = :now',
    // The same rule as isSessionLive: active, unexpired, not voided by a password reset.
    ConditionExpression: 'attribute_exists(pk) AND #status = :active AND expiresAt > :now AND createdAt >= :validFrom',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':revoked': 'REVOKED', ':active': 'ACTIVE', ':now': now, ':validFrom': sessionsValidFrom ?? '' },
  };
  if (!key) return conditionally(db().send(new UpdateCommand(revoke)));
  try {
    await db().send(new TransactWriteCommand({ TransactItems: [{ Update: revoke }, ...completionItems(key)] }));
    return true;
  } catch (error) {
    keyTakenOver(error, 1);
    if (failedConditions(error)) return false;
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
