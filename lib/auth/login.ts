import { auditRecord, userActor } from '../audit/record';
import { putLoneEntry } from '../audit/repository';
import { findSignInState } from './credentials-repository';
import { CredentialsChanged } from './session-opening';
import { insertLoginSession } from './users-repository';
import { Unauthorized } from '../errors';
import { countLogin } from '../metrics';
import { logger } from '../log';
import { openChallenge } from './mfa-challenge';
import { clearOnSuccess, consumeLimit, type ScopedLimit } from '../rate-limit';
import type { IssuedTokens } from './tokens';
import { decoyHash, verifyPassword } from './passwords';
import type { UserView } from './schemas';
import { evictionRecord, openSession, toUserView, type ClientInfo } from './sessions';
import { atCheckedVersion } from './session-state';

const BAD_CREDENTIALS = 'Invalid e-mail or password';

/** A right password signs in, or, for a user with a second factor, opens its challenge (the cookie's token). */
export type LoginOutcome = { kind: 'signed-in'; user: UserView; tokens: IssuedTokens } | { kind: 'mfa-required'; challenge: { token: string; maxAge: number } };

/** The attempt limits of login (the manifest's): per e-mail and source IP, and per source IP. */
export interface LoginLimits {
  perAddress: ScopedLimit;
  perIp: ScopedLimit;
}

/**
 * Log in. Cheap checks first: each attempt takes a slot of its e-mail-and-IP window, then one
 * of its IP's window, each in one conditional write, before anything is read or compared.
 * Once either is full every attempt gets 429 at once, without a lookup or bcrypt, so a 429
 * says nothing about the address, and rotating e-mails from one IP buys at most the IP's
 * ceiling of bcrypt runs. A right password clears the e-mail-and-IP window and gives the IP
 * slot back (lib/rate-limit, `clearOnSuccess`): one typo never locks a user out, and an office
 * behind one NAT counts only its mistakes.
 *
 * An unknown e-mail still costs one bcrypt comparison (against a decoy hash), so it answers
 * the same 401 in about the same time as a wrong password.
 *
 * The session's write is conditioned on the credential version the password was checked at:
 * a login that read the hash before a reset and commits after it is refused (401).
 */
export async function login(
  input: { email: string; password: string; rememberMe: boolean },
  client: ClientInfo,
  nowMs: number,
  limits: LoginLimits,
): Promise<LoginOutcome> {
  const addressSlot = await consumeLimit(limits.perAddress, { ip: client.ip, email: input.email }, nowMs);
  const ipSlot = await consumeLimit(limits.perIp, { ip: client.ip }, nowMs);

  const { user: found, credentials, tenant } = await findSignInState(input.email);
  const matches = await verifyPassword(input.password, credentials?.passwordHash ?? decoyHash());
  if (!found || !credentials || !matches || !tenant || tenant.status !== 'ACTIVE') {
    await recordFailure(found, nowMs);
    countLogin('failure');
    throw new Unauthorized(BAD_CREDENTIALS);
  }
  await clearOnSuccess(addressSlot, ipSlot);
  // Bound to the version of the hash just checked, whatever the user item says by now.
  const user = atCheckedVersion(found, credentials);

  if (credentials.totpSecret) {
    // The password was right; the session waits for the second factor (POST /auth/mfa/verify).
    const challenge = await openChallenge(user, input.rememberMe, nowMs);
    countLogin('second_factor_required');
    return { kind: 'mfa-required', challenge };
  }

  const { session, tokens } = await openSession(user, input.rememberMe, client, nowMs, user.credentialVersion);
  const record = auditRecord(
    { scope: { tenantId: user.tenantId }, action: 'auth.login', resource: { type: 'session', id: session.id }, actor: userActor(user) },
    nowMs,
  );
  try {
    await insertLoginSession(user, session, record, nowMs, evictionRecord(user, nowMs));
  } catch (error) {
    // The password was changed (or reset) while it was being checked: the old one opens nothing.
    if (error instanceof CredentialsChanged) throw new Unauthorized(BAD_CREDENTIALS);
    throw error;
  }
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
  const record = auditRecord(
    { scope: user ? { tenantId: user.tenantId } : 'platform', action: 'auth.login_failed', resource: { type: 'user', id: user?.id ?? null } },
    nowMs,
  );
  await putLoneEntry(record).catch((error: unknown) => logger.warn('failed login not recorded', { error: error as Error, auditEntryId: record.entry.id }));
}
