import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../../audit/model';
import type { MfaChallenge, Session, User } from '../../auth/model';
import { db, tableName } from '../client';
import { failedConditions } from '../conditions';
import { MFA_ITEMS } from '../item-types';
import { fieldsOf, pick } from '../items';
import { keys } from '../keys';
import { auditItems, writeWithEntry } from './audit';
import { sessionPut } from './sessions';

/**
 * The second factor's writes (issue 17, lib/auth/mfa): the enrolment on the user item, and a
 * login's challenge. Each commits with its audit entry.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const CHALLENGE_FIELDS = fieldsOf<MfaChallenge>()(['tenantId', 'userId', 'rememberMe', 'failures', 'expiresAtEpoch']);

/** The challenge dies at this many wrong codes. */
export const MAX_CHALLENGE_FAILURES = 5;

const userKey = (user: Pick<User, 'tenantId' | 'id'>) => keys.user(user.tenantId, user.id);

/** Offer a new secret: kept as pending on the user (replacing one offered before) until a code confirms it; refused once a second factor is on. */
export async function putPendingTotp(user: Pick<User, 'tenantId' | 'id'>, secret: string, now: string, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: userKey(user),
          UpdateExpression: 'SET totpPendingSecret = :secret, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(totpSecret)',
          ExpressionAttributeValues: { ':secret': secret, ':now': now },
        },
      },
    ],
    audit,
  );
}

/**
 * Every session of the user ends (`sessionsValidFrom` = now) and `session` replaces the
 * caller's, as a password change does: the update of the user that goes with it.
 */
const endingOtherSessions = (now: string) => ({ clause: 'sessionsValidFrom = :now, updatedAt = :now', values: { ':now': now } });

/**
 * Turn the second factor on: the pending secret becomes the user's (conditioned on still
 * being the one the code was checked against), with the step of that code (it cannot be used
 * again), the recovery codes' hashes, the end of every other session and the caller's new
 * one. False when the pending secret changed meanwhile.
 */
export async function enableTotp(
  user: Pick<User, 'tenantId' | 'id'>,
  enable: { secret: string; step: number; recoveryCodeHashes: string[]; now: string },
  session: Session,
  audit: AuditRecord,
): Promise<boolean> {
  const ending = endingOtherSessions(enable.now);
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: userKey(user),
          UpdateExpression: `SET totpSecret = :secret, totpEnabledAt = :now, totpLastStep = :step, recoveryCodeHashes = :codes, ${ending.clause} REMOVE totpPendingSecret`,
          ConditionExpression: 'totpPendingSecret = :secret AND attribute_not_exists(totpSecret)',
          ExpressionAttributeValues: { ':secret': enable.secret, ':step': enable.step, ':codes': new Set(enable.recoveryCodeHashes), ...ending.values },
        },
      },
      sessionPut(session),
    ],
    audit,
  );
}

/** What proves the second factor in a write: a TOTP code's step (after the last one used), or a recovery code's hash (used up). */
export type FactorProof = { step: number } | { recoveryCodeHash: string };

/** How a proof conditions a write on the user, and how it uses itself up there. */
function proofOf(proof: FactorProof): { condition: string; conditionValues: Record<string, unknown>; sets: string[]; deletes: string; useValues: Record<string, unknown> } {
  if ('step' in proof) {
    return { condition: 'totpLastStep < :step', conditionValues: { ':step': proof.step }, sets: ['totpLastStep = :step'], deletes: '', useValues: {} };
  }
  return {
    condition: 'contains(recoveryCodeHashes, :code)',
    conditionValues: { ':code': proof.recoveryCodeHash },
    sets: [],
    deletes: ' DELETE recoveryCodeHashes :used',
    useValues: { ':used': new Set([proof.recoveryCodeHash]) },
  };
}

/**
 * Turn the second factor off, proven by a code: the secret, its last step and the recovery
 * codes go, every other session ends and the caller's new one starts. False when the code was
 * used meanwhile (a replay) or the second factor changed.
 */
export async function disableTotp(user: Pick<User, 'tenantId' | 'id' | 'totpSecret'>, proof: FactorProof, now: string, session: Session, audit: AuditRecord): Promise<boolean> {
  const ending = endingOtherSessions(now);
  const proven = proofOf(proof);
  return writeWithEntry(
    [
      {
        Update: {
          TableName: tableName(),
          Key: userKey(user),
          UpdateExpression: `SET ${ending.clause} REMOVE totpSecret, totpEnabledAt, totpLastStep, recoveryCodeHashes, totpPendingSecret`,
          ConditionExpression: `totpSecret = :secret AND ${proven.condition}`,
          ExpressionAttributeValues: { ':secret': user.totpSecret, ...ending.values, ...proven.conditionValues },
        },
      },
      sessionPut(session),
    ],
    audit,
  );
}

/** A login's challenge, with its entry. */
export async function insertChallenge(tokenHash: string, challenge: MfaChallenge, audit: AuditRecord): Promise<void> {
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName(),
            Item: { ...keys.mfaChallenge(tokenHash), type: MFA_ITEMS.challenge, ...challenge, ttl: challenge.expiresAtEpoch },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...auditItems(audit),
      ],
    }),
  );
}

export async function getChallenge(tokenHash: string): Promise<MfaChallenge | undefined> {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.mfaChallenge(tokenHash), ConsistentRead: true }));
  return Item ? pick<MfaChallenge>(Item, CHALLENGE_FIELDS) : undefined;
}

/** The challenge is still alive at `nowEpoch`: unexpired, fewer than 5 wrong codes. */
const alive = (nowEpoch: number): { condition: string; values: Record<string, unknown> } => ({
  condition: 'attribute_exists(pk) AND expiresAtEpoch > :nowEpoch AND failures < :maxFailures',
  values: { ':nowEpoch': nowEpoch, ':maxFailures': MAX_CHALLENGE_FAILURES },
});

/**
 * A wrong code: one more failure on the challenge, conditioned on it being alive, with the
 * entry. Of N parallel wrong codes, at most the 5 the challenge has room for are counted
 * (each increment is conditioned on the count before it). False when it was no longer alive.
 */
export async function failChallenge(tokenHash: string, nowEpoch: number, audit: AuditRecord): Promise<boolean> {
  const live = alive(nowEpoch);
  return writeWithEntry(
    [{ Update: { TableName: tableName(), Key: keys.mfaChallenge(tokenHash), UpdateExpression: 'ADD failures :one', ConditionExpression: live.condition, ExpressionAttributeValues: { ':one': 1, ...live.values } } }],
    audit,
  );
}

/**
 * The login completes: the challenge is used up (conditioned on being alive), the proof
 * accepted on the user (a TOTP step after the last one, or a recovery code still unused, so a
 * code is accepted once), the session opens with `lastLoginAt`, and the entry, in one
 * transaction. `refused` names what failed: the challenge (401) or the proof (a replay).
 */
export async function completeChallenge(
  tokenHash: string,
  nowEpoch: number,
  user: Pick<User, 'tenantId' | 'id'>,
  proof: FactorProof,
  session: Session,
  audit: AuditRecord,
): Promise<{ done: true } | { done: false; refused: 'challenge' | 'proof' }> {
  const live = alive(nowEpoch);
  const proven = proofOf(proof);
  const items: TransactItem[] = [
    { Delete: { TableName: tableName(), Key: keys.mfaChallenge(tokenHash), ConditionExpression: live.condition, ExpressionAttributeValues: live.values } },
    {
      Update: {
        TableName: tableName(),
        Key: userKey(user),
        UpdateExpression: `SET ${['lastLoginAt = :login', ...proven.sets].join(', ')}${proven.deletes}`,
        ConditionExpression: `attribute_exists(pk) AND ${proven.condition}`,
        ExpressionAttributeValues: { ...proven.conditionValues, ...proven.useValues, ':login': session.createdAt },
      },
    },
    sessionPut(session),
    ...auditItems(audit),
  ];
  try {
    await db().send(new TransactWriteCommand({ TransactItems: items }));
    return { done: true };
  } catch (error) {
    const failed = failedConditions(error);
    if (failed?.includes(0)) return { done: false, refused: 'challenge' };
    if (failed?.includes(1)) return { done: false, refused: 'proof' };
    throw error;
  }
}
