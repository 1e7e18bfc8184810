import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditRecord } from '../audit/model';
import type { Session, User } from './model';
import { isSessionLive, MAX_SESSIONS_PER_USER } from '../domain/session-liveness';
import { db, tableName, type TransactItem } from '../db/client';
import { keys } from '../db/keys';
import { cancellationCodes, withOptimisticRetries } from '../db/retry';
import type { UpdateParts } from '../db/update-parts';
import { auditItems } from '../audit/repository';
import { getUser, listSessionsOfUser, sessionPut } from './items';

/**
 * Opening a session (a sign-in, the second factor's verify, a password change, the second
 * factor turned on or off) is bound to the credentials it was checked against and to the
 * cap of sessions per user, in the one transaction that opens it:
 *
 * - the user item is conditioned on the credential version the check read
 *   (`credentialsAsRead`), so a sign-in that read the old password hash cannot commit after a
 *   reset; a change of the credentials moves the version on (`credentialsChange`), which ends
 *   every session opened at an earlier one (lib/auth/session-state);
 * - the user item is conditioned on the number of openings it read, moves it on and sets the
 *   new session count, so two openings serialize, and the one past MAX_SESSIONS_PER_USER deletes
 *   the oldest sessions (dead ones first) in the same transaction.
 *
 * A lost condition on the user item is read again: a moved version ends the attempt with
 * `CredentialsChanged`, a moved opening count (a parallel opening) plans again.
 */

export { credentialsAsRead, credentialsChange, credentialsCheck, credentialsItemChange } from './items';

/** What the guard and the cap read of the user. */
export type UserGround = Pick<User, 'tenantId' | 'id' | 'credentialVersion' | 'sessionCount' | 'sessionOpenings' | 'sessionsValidFrom'>;

/** At most this many sessions leave in one opening (a user with sessions from before the cap gets there over a few). */
export const MAX_EVICTIONS_PER_OPENING = 10;

export interface SessionOpening {
  /** The session's put and the deletes of the sessions it makes room by. */
  items: TransactItem[];
  /** The user update's part: the new session count and openings, conditioned on the openings read. */
  user: UpdateParts;
  /** The live sessions it ends (each recorded as `session.evicted`). */
  evicted: Session[];
}

const byAge = (a: Session, b: Session) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1);

/**
 * How to open `session` for `user` within the cap. The list is read only when the count says
 * it may be full (or the user predates the count); below it, a sign-in costs no read.
 * `endsOthers`: the opening moves the credential version on, so every existing session is
 * dead already and none is an eviction.
 */
export async function planSessionOpening(user: UserGround, session: Session, endsOthers: boolean, nowMs: number): Promise<SessionOpening> {
  const read = user.sessionCount ?? null;
  const openings = user.sessionOpenings ?? null;
  // Conditioned on the openings read, which every opening moves on (the count alone may come back to the same value).
  const countParts = (next: number): UpdateParts => ({
    set: ['sessionCount = :sessionCount', 'sessionOpenings = :sessionOpenings'],
    conditions: [openings === null ? 'attribute_not_exists(sessionOpenings)' : 'sessionOpenings = :readSessionOpenings'],
    values: { ':sessionCount': next, ':sessionOpenings': (openings ?? 0) + 1, ...(openings === null ? {} : { ':readSessionOpenings': openings }) },
  });
  if (read !== null && read + 1 <= MAX_SESSIONS_PER_USER) return { items: [sessionPut(session)], user: countParts(read + 1), evicted: [] };

  const existing = await listSessionsOfUser(user.tenantId, user.id);
  const live = (candidate: Session) => !endsOthers && isSessionLive(candidate, user, nowMs);
  const ranked = [...existing.filter((candidate) => !live(candidate)).sort(byAge), ...existing.filter(live).sort(byAge)];
  const leaving = ranked.slice(0, Math.min(MAX_EVICTIONS_PER_OPENING, Math.max(0, existing.length + 1 - MAX_SESSIONS_PER_USER)));
  return {
    items: [
      sessionPut(session),
      ...leaving.map((gone): TransactItem => ({ Delete: { TableName: tableName(), Key: keys.session(gone.tenantId, gone.userId, gone.id) } })),
    ],
    user: countParts(existing.length + 1 - leaving.length),
    evicted: leaving.filter(live),
  };
}

/** The attempt's credentials are no longer the user's: the check it rests on is stale. */
export class CredentialsChanged extends Error {
  constructor() {
    super('The credentials changed while the session was being opened');
    this.name = 'CredentialsChanged';
  }
}

/** What the flow writes with the opening: the whole transaction, and where in it the user's update is. */
export interface OpeningTransaction {
  items: TransactItem[];
  userIndex: number;
}

/**
 * Open a session in one transaction with the flow's own writes (`build`, given the user as
 * read and the opening's plan), retrying from a fresh read of the user while only the openings
 * moved. `done: false` names the flow's own items whose conditions failed (a used code,
 * a dead challenge); `CredentialsChanged` is thrown when the version moved.
 */
export async function openSessionInTransaction(
  user: UserGround,
  session: Session,
  options: { endsOthers: boolean; nowMs: number; evictionRecord: (evicted: Session) => AuditRecord },
  build: (ground: UserGround, opening: SessionOpening) => OpeningTransaction,
): Promise<{ done: true } | { done: false; failed: number[] }> {
  let ground = user;
  type Outcome = { done: true } | { done: false; failed: number[] };
  return withOptimisticRetries<Outcome>(async () => {
    const opening = await planSessionOpening(ground, session, options.endsOthers, options.nowMs);
    const { items, userIndex } = build(ground, opening);
    const evictions = opening.evicted.flatMap((evicted) => auditItems(options.evictionRecord(evicted)));
    try {
      await db().send(new TransactWriteCommand({ TransactItems: [...items, ...evictions] }));
      return { retry: false, value: { done: true } };
    } catch (error) {
      const codes = cancellationCodes(error);
      if (codes.length === 0) throw error;
      const failed = codes.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
      const flowFailed = failed.filter((index) => index !== userIndex && index < items.length && !opening.items.some((item) => item === items[index]));
      if (flowFailed.length > 0) return { retry: false, value: { done: false, failed: flowFailed } };
      if (failed.length > 0 || codes.includes('TransactionConflict')) {
        const fresh = await getUser(ground.tenantId, ground.id);
        if (!fresh || fresh.credentialVersion !== user.credentialVersion) throw new CredentialsChanged();
        ground = fresh;
        return { retry: true };
      }
      throw error;
    }
  });
}
