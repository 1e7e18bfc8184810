import { Secret, TOTP } from 'otpauth';
import { auditRecord, userActor } from '../audit/record';
import type { User } from './model';

/**
 * TOTP as RFC 6238 (issue 17): SHA-1, 6 digits, 30-second steps, one step of skew each way,
 * through otpauth (never hand-written HOTP arithmetic). Kept apart from the routes' services
 * so that each function bundles only what it uses.
 */
export const TOTP_ISSUER = 'Backoffice';
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the step before and after the current one are accepted too (clock skew). */
const SKEW_STEPS = 1;

export const totpOf = (secret: string, label = '') => new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** The time step of `nowMs`. */
export const stepAt = (nowMs: number): number => TOTP.counter({ period: PERIOD_SECONDS, timestamp: nowMs });

/** The step a code belongs to, within the skew of `nowMs`; undefined for a wrong code. */
export function matchingStep(secret: string, code: string, nowMs: number): number | undefined {
  const delta = totpOf(secret).validate({ token: code, timestamp: nowMs, window: SKEW_STEPS });
  return delta === null ? undefined : stepAt(nowMs) + delta;
}

/** The code of a secret at `nowMs` (tests, and `npm run create-admin`'s first code). */
export const codeAt = (secret: string, nowMs: number): string => totpOf(secret).generate({ timestamp: nowMs });


/** The entry of a change to the user's second factor. */
export const record = (action: Parameters<typeof auditRecord>[0]['action'], user: Pick<User, 'tenantId' | 'id'>, nowMs: number, actor?: Pick<User, 'id' | 'name'>) =>
  auditRecord({ scope: { tenantId: user.tenantId }, action, resource: { type: 'user', id: user.id }, ...(actor ? { actor: userActor(actor) } : {}) }, nowMs);

