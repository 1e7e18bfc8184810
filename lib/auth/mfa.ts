import { randomBytes } from 'node:crypto';
import { auditRecord, userActor } from '../audit/record';
import { matchingStep, record } from './totp';
import { readAccountState } from './credentials-repository';
import { completeChallenge, disableTotp, enableTotp, failChallenge, getChallenge, MAX_CHALLENGE_FAILURES, type FactorProof } from './mfa-repository';
import { CredentialsChanged } from './session-opening';
import { sha256Hex } from '../domain/hash';
import { Conflict, Forbidden, Unauthorized, ValidationError } from '../errors';
import { countLogin, countSessionsRevoked } from '../metrics';
import { mailer } from '../mail/mailer';
import { secondFactorChangedMail } from '../mail/templates';
import { consumeLimit, type ScopedLimit } from '../rate-limit';
import type { Credentials, User } from './model';
import { sendQuietly } from '../mail/send-quietly';
import type { Principal } from './principal';
import type { UserView } from './schemas';
import { evictionRecord, openSession, toUserView, type ClientInfo } from './sessions';
import { atCheckedVersion } from './session-state';
import type { IssuedTokens } from './tokens';

/**
 * The second factor: TOTP codes (lib/auth/totp), QR codes drawn locally as SVG
 * (lib/auth/mfa-enrolment), and 10 single-use recovery codes kept only as SHA-256 hashes (each
 * is 50 random bits: a hash, not bcrypt, is enough). The login's first step is
 * lib/auth/mfa-challenge.
 */
export const RECOVERY_CODES = 10;

/** Recovery codes: 10 characters of Crockford base32 shown as `xxxxx-xxxxx`; compared without dashes, case-insensitively. */
const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** A fresh set of recovery codes, as shown to the user once. */
export const newRecoveryCodes = (): string[] => Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const text = [...bytes].map((byte) => CROCKFORD[byte & 31]).join('');
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}
export const recoveryCodeHash = (code: string): string => sha256Hex(`recovery:${code.replace(/-/g, '').toLowerCase()}`);

const wrongCode = () => ValidationError.of('code', 'is not a valid code');

/** The 400 of a proof that does not hold, naming the field given. */
const refusedProof = (input: { code?: string | undefined }) =>
  input.code !== undefined ? wrongCode() : ValidationError.of('recoveryCode', 'is not an unused recovery code');

/** The caller's user, credentials and session, read together (401 when any is gone). */
async function callerState(principal: Principal): Promise<{ user: User; credentials: Credentials; rememberMe: boolean }> {
  const { user, credentials, session } = await readAccountState({ tenantId: principal.tenantId, userId: principal.userId, sessionId: principal.sessionId });
  if (!user || !credentials || !session) throw new Unauthorized('The session has ended');
  // The change is conditioned on the version of the credentials read (lib/auth/session-state).
  return { user: atCheckedVersion(user, credentials), credentials, rememberMe: session.rememberMe };
}

const CREDENTIALS_MOVED = 'The password or the second factor changed meanwhile; sign in again';

/** A credentials write that found them changed by another request: 409 (the caller's session has ended too). */
async function unlessCredentialsMoved<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof CredentialsChanged) throw new Conflict(CREDENTIALS_MOVED);
    throw error;
  }
}

async function notify(user: Pick<User, 'email'>, enabled: boolean): Promise<void> {
  await sendQuietly(async () => (await mailer()).send(secondFactorChangedMail(user.email, enabled)), 'second factor notification');
}

/**
 * POST /auth/mfa/totp/confirm: a code of the pending secret turns the second factor on. The
 * 10 recovery codes are returned once; every other session of the user ends and the caller
 * goes on with fresh cookies; a notification e-mail follows.
 */
export async function confirmEnrolment(
  principal: Principal,
  code: string,
  client: ClientInfo,
  nowMs: number,
): Promise<{ user: UserView; recoveryCodes: string[]; tokens: IssuedTokens }> {
  const { user, credentials, rememberMe } = await callerState(principal);
  if (credentials.totpSecret) throw new Conflict('A second factor is already on');
  if (!credentials.totpPendingSecret) throw new Conflict('No enrolment was started: POST /auth/mfa/totp first');
  const step = matchingStep(credentials.totpPendingSecret, code, nowMs);
  if (step === undefined) throw wrongCode();

  const recoveryCodes = newRecoveryCodes();
  // The new session is opened at the version this change moves the credentials to.
  const { session, tokens } = await openSession(user, rememberMe, client, nowMs, user.credentialVersion + 1);
  const enabled = await unlessCredentialsMoved(
    enableTotp(
      user,
      { secret: credentials.totpPendingSecret, step, recoveryCodeHashes: recoveryCodes.map(recoveryCodeHash) },
      session,
      record('auth.mfa_enabled', user, nowMs),
      nowMs,
      evictionRecord(user, nowMs),
    ),
  );
  if (!enabled) throw new Conflict('The enrolment changed meanwhile; start again');
  countSessionsRevoked('second_factor_changed');
  await notify(user, true);
  return { user: toUserView(user), recoveryCodes, tokens };
}

/** What proves the second factor: a code of the secret (its step), or an unused recovery code (its hash); undefined when neither. */
function proofFor(credentials: Credentials, input: { code?: string | undefined; recoveryCode?: string | undefined }, nowMs: number): FactorProof | undefined {
  if (!credentials.totpSecret) return undefined;
  if (input.code !== undefined) {
    const step = matchingStep(credentials.totpSecret, input.code, nowMs);
    // A code already used (its step or an earlier one) is refused like a wrong one.
    return step !== undefined && step > (credentials.totpLastStep ?? -1) ? { step } : undefined;
  }
  if (input.recoveryCode !== undefined) {
    const hash = recoveryCodeHash(input.recoveryCode);
    return credentials.recoveryCodeHashes?.includes(hash) ? { recoveryCodeHash: hash } : undefined;
  }
  return undefined;
}

/**
 * DELETE /auth/mfa/totp: a current code (or an unused recovery code) turns the second factor
 * off; every other session ends and the caller goes on with fresh cookies; a notification
 * e-mail follows.
 */
export async function turnOffTotp(
  principal: Principal,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
  client: ClientInfo,
  nowMs: number,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const { user, credentials, rememberMe } = await callerState(principal);
  if (!credentials.totpSecret) throw new Conflict('No second factor is on');
  if (principal.platformAdmin) throw new Forbidden('A platform administrator always keeps a second factor');
  const proof = proofFor(credentials, input, nowMs);
  if (!proof) throw refusedProof(input);
  const { session, tokens } = await openSession(user, rememberMe, client, nowMs, user.credentialVersion + 1);
  if (
    !(await unlessCredentialsMoved(
      disableTotp(user, credentials.totpSecret, proof, session, record('auth.mfa_disabled', user, nowMs), nowMs, evictionRecord(user, nowMs)),
    ))
  ) {
    throw new Conflict('The code was used or the second factor changed meanwhile');
  }
  countSessionsRevoked('second_factor_changed');
  await notify(user, false);
  return { user: toUserView(user), tokens };
}

const CHALLENGE_ENDED = 'The sign-in expired or took too many wrong codes: sign in again';

/**
 * POST /auth/mfa/verify: the second step of a login. The challenge (from its cookie) must be
 * alive; wrong codes are counted on it (it dies at the fifth) and under the per-user limit,
 * which holds across challenges. The challenge is bound to the credential version its
 * password was checked at: after a password change or reset it is refused, and so is a
 * tenant that stopped being active meanwhile. A right code opens the session exactly as a
 * login does, with the challenge's `rememberMe`; a code is accepted once (its step must be
 * after the last one used) and a recovery code once.
 */
export async function verifyChallenge(
  token: string | undefined,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
  client: ClientInfo,
  nowMs: number,
  perUser: ScopedLimit,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  if (!token) throw new Unauthorized('No sign-in in progress');
  const tokenHash = sha256Hex(token);
  const nowEpoch = Math.floor(nowMs / 1000);
  const challenge = await getChallenge(tokenHash);
  if (!challenge || challenge.expiresAtEpoch <= nowEpoch || challenge.failures >= MAX_CHALLENGE_FAILURES) throw new Unauthorized(CHALLENGE_ENDED);
  await consumeLimit(perUser, { ip: client.ip, userId: challenge.userId }, nowMs);

  const { user: found, credentials, tenant } = await readAccountState({ tenantId: challenge.tenantId, userId: challenge.userId });
  if (!found || !credentials?.totpSecret || tenant?.status !== 'ACTIVE' || challenge.credentialVersion !== credentials.credentialVersion)
    throw new Unauthorized(CHALLENGE_ENDED);
  const user = atCheckedVersion(found, credentials);
  const proof = proofFor(credentials, input, nowMs);
  if (!proof) {
    const counted = await failChallenge(tokenHash, nowEpoch, record('auth.mfa_failed', user, nowMs));
    countLogin('second_factor_failure');
    if (!counted) throw new Unauthorized(CHALLENGE_ENDED);
    throw refusedProof(input);
  }

  const { session, tokens } = await openSession(user, challenge.rememberMe, client, nowMs, user.credentialVersion);
  const action = 'step' in proof ? 'auth.login' : 'auth.mfa_recovery_code_used';
  // As a login without a second factor: the session is the resource.
  const entry = auditRecord({ scope: { tenantId: user.tenantId }, action, resource: { type: 'session', id: session.id }, actor: userActor(user) }, nowMs);
  let outcome: Awaited<ReturnType<typeof completeChallenge>>;
  try {
    outcome = await completeChallenge(tokenHash, nowMs, user, proof, session, entry, evictionRecord(user, nowMs));
  } catch (error) {
    // The password or the second factor changed since the challenge's password step.
    if (error instanceof CredentialsChanged) throw new Unauthorized(CHALLENGE_ENDED);
    throw error;
  }
  if (!outcome.done) {
    if (outcome.refused === 'challenge') throw new Unauthorized(CHALLENGE_ENDED);
    throw refusedProof(input);
  }
  countLogin('success');
  return { user: toUserView(user), tokens };
}
