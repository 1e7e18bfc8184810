import { auditRecord, userActor } from '../audit/record';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { appLink } from '../mail/links';
import { sha256Hex } from '../domain/hash';
import { consumePasswordReset, getPasswordReset, insertPasswordReset } from './password-resets-repository';
import { getTenant } from '../tenants/repository';
import { findUserByEmail, getUser } from './users-repository';
import { ValidationError } from '../errors';
import { mailer } from '../mail/mailer';
import { countSessionsRevoked } from '../metrics';
import { sendQuietly } from '../mail/send-quietly';
import { passwordChangedMail, passwordResetMail } from '../mail/templates';
import { hashPassword } from './passwords';
import { consumeLimit, type ScopedLimit } from '../rate-limit';

export const RESET_TOKEN_MINUTES = 30;
/**
 * forgot-password answers no sooner than this, whether the address exists or not, so its
 * timing does not tell (the known path also writes the token and calls SES).
 */
export const FORGOT_PASSWORD_MIN_MS = 600;

const hashToken = sha256Hex;

/**
 * Start a password reset. Each address may ask 5 times a day (`perAddress`, the manifest's;
 * counted whether it has an account or not, so a 429 tells nothing), so that many IPs cannot
 * flood one mailbox. Known address: a new token (32 random bytes, stored only as its SHA-256,
 * 30 minutes, replacing any older one) and an e-mail with the link. Unknown address, or the
 * address of a user whose tenant is not active: nothing.
 * Both take at least FORGOT_PASSWORD_MIN_MS and answer the same.
 */
export async function requestPasswordReset(email: string, nowMs: number, perAddress: ScopedLimit): Promise<void> {
  await consumeLimit(perAddress, { ip: '', email }, nowMs);
  const started = Date.now();
  try {
    const user = await findUserByEmail(email);
    if (!user) return;
    // A closed tenant changes nothing: its users are answered as an unknown address is (the same 200, no mail, no entry).
    if ((await getTenant(user.tenantId))?.status !== 'ACTIVE') return;
    await sendQuietly(async () => {
      const token = randomBytes(32).toString('base64url');
      await insertPasswordReset(
        hashToken(token),
        {
          tenantId: user.tenantId,
          userId: user.id,
          expiresAtEpoch: Math.floor(nowMs / 1000) + RESET_TOKEN_MINUTES * 60,
        },
        auditRecord({ scope: { tenantId: user.tenantId }, action: 'auth.password_reset_requested', resource: { type: 'user', id: user.id } }, nowMs),
      );
      await (await mailer()).send(passwordResetMail(user.email, appLink('reset-password', { token }), RESET_TOKEN_MINUTES));
    }, 'password reset request');
  } finally {
    const remaining = FORGOT_PASSWORD_MIN_MS - (Date.now() - started);
    if (remaining > 0) await sleep(remaining);
  }
}

const invalidToken = () => ValidationError.of('token', 'is invalid, expired or already used');

/**
 * Complete a reset: single use (of two concurrent uses, one wins), the newest token only,
 * within 30 minutes. The password changes and the credential version moves on in the same
 * transaction, so every session of the user ends, and a sign-in or a second-factor challenge
 * that checked the old password can no longer open one; a notification e-mail follows. Refused
 * as an invalid token, changing nothing, while the user's tenant is not active.
 */
export async function resetPassword(input: { token: string; newPassword: string }, nowMs: number): Promise<void> {
  const tokenHash = hashToken(input.token);
  const reset = await getPasswordReset(tokenHash);
  const nowEpoch = Math.floor(nowMs / 1000);
  if (!reset || reset.expiresAtEpoch <= nowEpoch) throw invalidToken();

  const passwordHash = await hashPassword(input.newPassword);
  const user = await getUser(reset.tenantId, reset.userId);
  if (!user) throw invalidToken();
  const record = auditRecord(
    { scope: { tenantId: user.tenantId }, action: 'auth.password_reset', resource: { type: 'user', id: user.id }, actor: userActor(user) },
    nowMs,
  );
  const used = await consumePasswordReset(tokenHash, reset, user, { passwordHash, now: new Date(nowMs).toISOString(), nowEpoch }, record);
  if (!used) throw invalidToken();
  countSessionsRevoked('password_reset');

  await sendQuietly(async () => (await mailer()).send(passwordChangedMail(user.email)), 'password change notification');
}
