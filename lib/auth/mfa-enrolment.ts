import { Secret } from 'otpauth';
import { renderSVG } from 'uqr';
import { putPendingTotp } from '../db/repositories/mfa';
import { Conflict } from '../errors';
import { record, totpOf } from './totp';
import type { Principal } from './principal';

/**
 * The start of a TOTP enrolment (issue 17): apart from lib/auth/mfa so that only this
 * function bundles the QR code library.
 */

export interface TotpEnrolment {
  otpauthUri: string;
  secret: string;
  qrSvg: string;
}

/** POST /auth/mfa/totp: a new secret, pending until a code confirms it; 409 when a second factor is already on. */
export async function startEnrolment(principal: Principal, nowMs: number): Promise<TotpEnrolment> {
  const secret = new Secret({ size: 20 }).base32;
  const user = { tenantId: principal.tenantId, id: principal.userId };
  if (!(await putPendingTotp(user, secret, new Date(nowMs).toISOString(), record('auth.mfa_enrolment_started', user, nowMs)))) {
    throw new Conflict('A second factor is already on: turn it off first');
  }
  const otpauthUri = totpOf(secret, principal.email).toString();
  return { otpauthUri, secret, qrSvg: renderSVG(otpauthUri) };
}

