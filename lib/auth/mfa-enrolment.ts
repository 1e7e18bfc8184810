import { renderSVG } from 'uqr';
import { readAccountState } from './credentials-repository';
import { putPendingTotp } from './mfa-repository';
import { Conflict, Unauthorized, ValidationError } from '../errors';
import { clearOnSuccess, consumeLimit, type ScopedLimit } from '../rate-limit';
import { verifyPassword } from './passwords';
import { newTotpSecret, record, totpUri } from './totp';
import type { Principal } from './principal';
import type { ClientInfo } from './sessions';
import { atCheckedVersion } from './session-state';

/**
 * The start of a TOTP enrolment: apart from lib/auth/mfa so that only this
 * function bundles the QR code library.
 */

export interface TotpEnrolment {
  otpauthUri: string;
  secret: string;
  qrSvg: string;
}

/**
 * POST /auth/mfa/totp: a new secret, pending until a code confirms it. A step-up: the current
 * password must come with it, so an access cookie alone cannot put a second factor on an
 * account. The password is checked in login's password-attempt window (a wrong one counts as
 * a failed attempt there and answers 400 naming `password`; a right one clears the window).
 * 409 when a second factor is already on.
 */
export async function startEnrolment(principal: Principal, password: string, client: ClientInfo, nowMs: number, attempts: ScopedLimit): Promise<TotpEnrolment> {
  const slot = await consumeLimit(attempts, { ip: client.ip, email: principal.email }, nowMs);
  const { user: found, credentials } = await readAccountState({ tenantId: principal.tenantId, userId: principal.userId });
  if (!found || !credentials) throw new Unauthorized('The session has ended');
  const user = atCheckedVersion(found, credentials);
  if (credentials.totpSecret) throw new Conflict('A second factor is already on: turn it off first');
  if (!(await verifyPassword(password, credentials.passwordHash))) throw ValidationError.of('password', 'is not the current password');
  await clearOnSuccess(slot);

  const secret = newTotpSecret();
  // Conditioned on the credential version the password was checked at, and on no second factor.
  if (!(await putPendingTotp(user, secret, record('auth.mfa_enrolment_started', user, nowMs)))) {
    throw new Conflict('A second factor was turned on, or the password changed, meanwhile');
  }
  const otpauthUri = totpUri(secret, principal.email);
  return { otpauthUri, secret, qrSvg: renderSVG(otpauthUri) };
}
