import { auditRecord, userActor } from '../audit/record';
import { putLoneEntry } from '../db/repositories/audit';
import { getTenant } from '../db/repositories/tenants';
import { findUserByEmail, insertLoginSession } from '../db/repositories/users';
import { Unauthorized } from '../errors';
import { countLogin } from '../metrics';
import { logger } from '../log';
import { openChallenge } from './mfa-challenge';
import { consume, giveBackIfAlone, type RateLimit } from '../rate-limit';
import type { IssuedTokens } from './tokens';
import { decoyHash, verifyPassword } from './passwords';
import type { UserView } from './schemas';
import { openSession, toUserView, type ClientInfo } from './sessions';

const BAD_CREDENTIALS = 'Invalid e-mail or password';

/** A right password signs in, or, for a user with a second factor, opens its challenge (the cookie's token). */
export type LoginOutcome = { kind: 'signed-in'; user: UserView; tokens: IssuedTokens } | { kind: 'mfa-required'; challenge: { token: string; maxAge: number } };

/** The attempt limit of login: counted per e-mail and source IP. */
export interface AttemptLimit {
  scope: string;
  limit: RateLimit;
}

/**
 * Log in. Each attempt first takes a slot of the e-mail-and-IP window, in one conditional
 * write, before anything is read or compared: once `limit` attempts hold the window, every
 * attempt (the right password included) gets 429 at once, without bcrypt and without a
 * lookup, so it cannot tell an existing e-mail from an unknown one. A success alone in its
 * window gives its slot back (see `giveBackIfAlone`).
 *
 * An unknown e-mail still costs one bcrypt comparison (against a decoy hash), so it answers
 * the same 401 in about the same time as a wrong password.
 */
export async function login(
  input: { email: string; password: string; rememberMe: boolean },
  client: ClientInfo,
  nowMs: number,
  attempts?: AttemptLimit,
): Promise<LoginOutcome> {
  const slot = attempts ? await consume(attempts.scope, attempts.limit, { ip: client.ip, email: input.email }, nowMs) : undefined;

  const user = await findUserByEmail(input.email);
  const matches = await verifyPassword(input.password, user?.passwordHash ?? decoyHash());
  const tenant = user && matches ? await getTenant(user.tenantId) : undefined;
  if (!user || !matches || !tenant || tenant.status !== 'ACTIVE') {
    await recordFailure(user, nowMs);
    countLogin('failure');
    throw new Unauthorized(BAD_CREDENTIALS);
  }

  if (user.totpSecret) {
    // The password was right; the session waits for the second factor (POST /auth/mfa/verify).
    const challenge = await openChallenge(user, input.rememberMe, nowMs);
    if (slot) await giveBackIfAlone(slot);
    countLogin('second_factor_required');
    return { kind: 'mfa-required', challenge };
  }

  const { session, tokens } = await openSession(user, input.rememberMe, client, nowMs);
  await insertLoginSession(user, session, auditRecord({ scope: { tenantId: user.tenantId }, action: 'auth.login', resource: { type: 'session', id: session.id }, actor: userActor(user) }, nowMs));
  if (slot) await giveBackIfAlone(slot);
  countLogin('success');
  return { kind: 'signed-in', user: toUserView(user), tokens };
}

/**
 * A failed login is not a change: one unconditional put of its entry (docs/decisions.md,
 * "Audit trail"). A known e-mail's goes into its tenant's trail, naming the account; an unknown
 * one's into the platform's, naming nobody. Neither holds the e-mail or the password, and the
 * answer is the same 401 either way. The attempt was already counted by the throttle, which
 * bounds how many such puts one e-mail and address can cause. If the put fails the login still
 * answers 401 (a failed write must not turn a refusal into a 500); the log keeps the event.
 */
async function recordFailure(user: { id: string; tenantId: string } | undefined, nowMs: number): Promise<void> {
  const record = auditRecord({ scope: user ? { tenantId: user.tenantId } : 'platform', action: 'auth.login_failed', resource: { type: 'user', id: user?.id ?? null } }, nowMs);
  await putLoneEntry(record).catch((error: unknown) => logger.warn('failed login not recorded', { error: error as Error, auditEntryId: record.entry.id }));
}
