import { randomBytes } from 'node:crypto';
import { auditRecord, userActor } from '../audit/record';
import { insertChallenge } from './mfa-repository';
import { sha256Hex } from '../domain/hash';
import type { User } from './model';

/**
 * The first step of a login with a second factor: the password was right, so a
 * challenge waits for the code. Apart from lib/auth/mfa so that the login function does not
 * bundle the TOTP and QR libraries it never uses.
 */

/** A login's challenge lives 5 minutes. */
export const CHALLENGE_SECONDS = 5 * 60;

/** A new login challenge for a user whose password was right: its token (the cookie's value) only the client holds. */
export async function openChallenge(user: User, rememberMe: boolean, nowMs: number): Promise<{ token: string; maxAge: number }> {
  const token = randomBytes(32).toString('base64url');
  await insertChallenge(
    sha256Hex(token),
    // The credential version the password was checked at: verify refuses the challenge once it moved (a reset, a new password).
    {
      tenantId: user.tenantId,
      userId: user.id,
      rememberMe,
      failures: 0,
      expiresAtEpoch: Math.floor(nowMs / 1000) + CHALLENGE_SECONDS,
      credentialVersion: user.credentialVersion,
    },
    auditRecord({ scope: { tenantId: user.tenantId }, action: 'auth.mfa_challenged', resource: { type: 'user', id: user.id }, actor: userActor(user) }, nowMs),
  );
  return { token, maxAge: CHALLENGE_SECONDS };
}
