import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import type { MfaChallenge, Session, User } from './model';
import { db, tableName, type TransactItem } from '../db/client';
import { failedConditions } from '../db/conditions';
import { MFA_ITEMS } from '../db/item-types';
import { fieldsOf, pick } from '../db/items';
import { keys } from '../db/keys';
import { updateItem, type UpdateParts } from '../db/update-parts';
import { auditItems, writeWithEntry } from '../audit/repository';
import { credentialsAsRead, credentialsChange, credentialsItemChange, openSessionInTransaction, type UserGround } from './session-opening';
import type { EvictionRecord } from './users-repository';

/**
 * The second factor's writes (lib/auth/mfa): the secret, its last step and the recovery codes
 * on the user's credentials item, whether it is on (`totpEnabledAt`) and the credential
 * version on the user item, and a login's challenge. Each commits with its audit entry.
 */

const CHALLENGE_FIELDS = fieldsOf<MfaChallenge>()(['tenantId', 'userId', 'rememberMe', 'failures', 'expiresAtEpoch', 'credentialVersion']);

/** The challenge dies at this many wrong codes. */
export const MAX_CHALLENGE_FAILURES = 5;

const userKey = (user: Pick<User, 'tenantId' | 'id'>) => keys.user(user.tenantId, user.id);
const credentialsKey = (user: Pick<User, 'tenantId' | 'id'>) => keys.credentials(user.tenantId, user.id);

/** Every attribute of the second factor on the credentials item. */
const FACTOR_ATTRIBUTES = ['totpSecret', 'totpLastStep', 'recoveryCodeHashes', 'totpPendingSecret'];

/**
 * Offer a new secret: kept as pending on the credentials (replacing one offered before) until
 * a code confirms it; refused once a second factor is on, and when the password the caller
 * just proved is no longer the user's (the credential version moved). False when refused.
 */
export async function putPendingTotp(user: Pick<User, 'tenantId' | 'id' | 'credentialVersion'>, secret: string, audit: AuditRecord): Promise<boolean> {
  const version = credentialsAsRead(user.credentialVersion);
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          updateItem(tableName(), credentialsKey(user), {
            set: ['totpPendingSecret = :secret'],
            conditions: ['attribute_exists(pk)', 'attribute_not_exists(totpSecret)'],
            values: { ':secret': secret },
          }),
          {
            ConditionCheck: {
              TableName: tableName(),
              Key: userKey(user),
              ConditionExpression: version.conditions?.join(' AND '),
              ExpressionAttributeValues: version.values,
            },
          },
          ...auditItems(audit),
        ],
      }),
    );
    return true;
  } catch (error) {
    if (failedConditions(error)) return false;
    throw error;
  }
}

/** What the second factor's change does to the user item besides the credential change. */
const factorOn = (now: string, recoveryCodes: number): UpdateParts => ({
  set: ['totpEnabledAt = :totpEnabledAt', 'recoveryCodesLeft = :recoveryCodesLeft'],
  values: { ':totpEnabledAt': now, ':recoveryCodesLeft': recoveryCodes },
});
const factorOff: UpdateParts = { remove: ['totpEnabledAt', 'recoveryCodesLeft'] };
/** A recovery code used up: one fewer left on the user item, in the transaction that removes its hash (an account older than the count gets it at the next enrolment, or from `npm run migrate`). */
const recoveryCodeUsed: UpdateParts = { set: ['recoveryCodesLeft = recoveryCodesLeft - :oneCode'], values: { ':oneCode': 1 } };

/**
 * Turn the second factor on, with the caller's new session: the pending secret becomes the
 * user's (conditioned on still being the one the code was checked against), with the step of
 * that code (it cannot be used again) and the recovery codes' hashes; the credential version
 * moves on (every other session ends). `done: false` when the pending secret changed
 * meanwhile; `CredentialsChanged` when the credentials did.
 */
export async function enableTotp(
  user: UserGround,
  enable: { secret: string; step: number; recoveryCodeHashes: string[] },
  session: Session,
  audit: AuditRecord,
  nowMs: number,
  evictionRecord: EvictionRecord,
): Promise<boolean> {
  const outcome = await openSessionInTransaction(user, session, { endsOthers: true, nowMs, evictionRecord }, (ground, opening) => ({
    items: [
      updateItem(tableName(), credentialsKey(ground), credentialsItemChange(user.credentialVersion), {
        set: ['totpSecret = :secret', 'totpLastStep = :step', 'recoveryCodeHashes = :codes'],
        remove: ['totpPendingSecret'],
        conditions: ['totpPendingSecret = :secret', 'attribute_not_exists(totpSecret)'],
        values: { ':secret': enable.secret, ':step': enable.step, ':codes': new Set(enable.recoveryCodeHashes) },
      }),
      updateItem(
        tableName(),
        userKey(ground),
        credentialsChange(user.credentialVersion, session.createdAt),
        factorOn(session.createdAt, enable.recoveryCodeHashes.length),
        opening.user,
      ),
      ...opening.items,
      ...auditItems(audit),
    ],
    userIndex: 1,
  }));
  return outcome.done;
}

/** What proves the second factor in a write: a TOTP code's step (after the last one used), or a recovery code's hash (used up). */
export type FactorProof = { step: number } | { recoveryCodeHash: string };

/** How a proof conditions a write on the credentials, and how it uses itself up there. */
function proofOf(proof: FactorProof): {
  condition: string;
  conditionValues: Record<string, unknown>;
  sets: string[];
  deletes: string;
  useValues: Record<string, unknown>;
} {
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
 * Turn the second factor off, proven by a code, with the caller's new session: the secret,
 * its last step and the recovery codes go, the credential version moves on (every other
 * session ends). False when the code was used meanwhile (a replay) or the second factor
 * changed; `CredentialsChanged` when the credentials did.
 */
export async function disableTotp(
  user: UserGround,
  secret: string,
  proof: FactorProof,
  session: Session,
  audit: AuditRecord,
  nowMs: number,
  evictionRecord: EvictionRecord,
): Promise<boolean> {
  const proven = proofOf(proof);
  const outcome = await openSessionInTransaction(user, session, { endsOthers: true, nowMs, evictionRecord }, (ground, opening) => ({
    items: [
      {
        Update: {
          TableName: tableName(),
          Key: credentialsKey(ground),
          UpdateExpression: `SET credentialVersion = :nextCredentialVersion REMOVE ${FACTOR_ATTRIBUTES.join(', ')}`,
          ConditionExpression: `totpSecret = :secret AND ${proven.condition}`,
          ExpressionAttributeValues: { ':secret': secret, ':nextCredentialVersion': user.credentialVersion + 1, ...proven.conditionValues },
        },
      },
      updateItem(tableName(), userKey(ground), credentialsChange(user.credentialVersion, session.createdAt), factorOff, opening.user),
      ...opening.items,
      ...auditItems(audit),
    ],
    userIndex: 1,
  }));
  return outcome.done;
}

/**
 * An administrator resets a user's second factor (DELETE /users/{id}/mfa): the secret, the
 * pending one and the recovery codes go, and the credential version moves on, so every session
 * of the user ends; conditioned on the user still having one at the version read. False when
 * it does not (it was turned off or changed meanwhile).
 */
export async function resetSecondFactor(user: Pick<User, 'tenantId' | 'id' | 'credentialVersion'>, now: string, audit: AuditRecord): Promise<boolean> {
  return writeWithEntry(
    [
      updateItem(tableName(), userKey(user), credentialsChange(user.credentialVersion, now), factorOff, { conditions: ['attribute_exists(totpEnabledAt)'] }),
      updateItem(tableName(), credentialsKey(user), credentialsItemChange(user.credentialVersion), { remove: FACTOR_ATTRIBUTES }),
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
    [
      {
        Update: {
          TableName: tableName(),
          Key: keys.mfaChallenge(tokenHash),
          UpdateExpression: 'ADD failures :one',
          ConditionExpression: live.condition,
          ExpressionAttributeValues: { ':one': 1, ...live.values },
        },
      },
    ],
    audit,
  );
}

/**
 * The login completes: the challenge is used up (conditioned on being alive), the proof
 * accepted on the credentials (a TOTP step after the last one, or a recovery code still
 * unused, so a code is accepted once), the session opens with `lastLoginAt` at the credential
 * version the challenge's password was checked at, and the entry, in one transaction.
 * `refused` names what failed: the challenge (401) or the proof (a replay);
 * `CredentialsChanged` is thrown when the credentials moved on.
 */
export async function completeChallenge(
  tokenHash: string,
  nowMs: number,
  user: UserGround & Pick<User, 'recoveryCodesLeft'>,
  proof: FactorProof,
  session: Session,
  audit: AuditRecord,
  evictionRecord: EvictionRecord,
): Promise<{ done: true } | { done: false; refused: 'challenge' | 'proof' }> {
  const live = alive(Math.floor(nowMs / 1000));
  const proven = proofOf(proof);
  const outcome = await openSessionInTransaction(user, session, { endsOthers: false, nowMs, evictionRecord }, (ground, opening) => ({
    items: [
      { Delete: { TableName: tableName(), Key: keys.mfaChallenge(tokenHash), ConditionExpression: live.condition, ExpressionAttributeValues: live.values } },
      {
        Update: {
          TableName: tableName(),
          Key: credentialsKey(ground),
          UpdateExpression: `${proven.sets.length ? `SET ${proven.sets.join(', ')}` : ''}${proven.deletes}`.trim(),
          ConditionExpression: `attribute_exists(pk) AND ${proven.condition}`,
          ExpressionAttributeValues: { ...proven.conditionValues, ...proven.useValues },
        },
      },
      updateItem(
        tableName(),
        userKey(ground),
        credentialsAsRead(user.credentialVersion),
        opening.user,
        { set: ['lastLoginAt = :lastLoginAt'], values: { ':lastLoginAt': session.createdAt } },
        ...('recoveryCodeHash' in proof && user.recoveryCodesLeft != null ? [recoveryCodeUsed] : []),
      ),
      ...opening.items,
      ...auditItems(audit),
    ] satisfies TransactItem[],
    userIndex: 2,
  }));
  if (outcome.done) return { done: true };
  return { done: false, refused: outcome.failed.includes(0) ? 'challenge' : 'proof' };
}
