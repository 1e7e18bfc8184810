import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { auditRecord, userActor } from '../audit/record';
import type { User } from './model';

/**
 * TOTP as RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps, one step of skew each
 * way; the HOTP value of RFC 4226 (section 5.3: dynamic truncation) on node:crypto, secrets in
 * base32 (RFC 4648) as authenticator apps take them. It replaced otpauth, whose whole library
 * every second-factor function loaded at cold start for these few lines; it behaves as
 * otpauth did (same codes, same skew order, same URIs), and test/unit/totp.test.ts holds it to
 * the RFC's test vectors. Kept apart from the routes' services so that each function bundles
 * only what it uses.
 */
export const TOTP_ISSUER = 'Backoffice';
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** Codes of the step before and after the current one are accepted too (clock skew). */
const SKEW_STEPS = 1;
/** A new secret's size: 160 bits, RFC 4226's recommendation for HMAC-SHA-1. */
const SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Base32 text (RFC 4648, no padding) of `bytes`. */
export function base32Encode(bytes: Uint8Array): string {
  let text = '';
  let value = 0;
  let bits = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += BASE32[(value >>> bits) & 31];
    }
  }
  if (bits > 0) text += BASE32[(value << (5 - bits)) & 31];
  return text;
}

/** The bytes of base32 text: case-insensitive, blanks and padding ignored; a character out of the alphabet throws. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/ /g, '').toUpperCase().replace(/=+$/, '');
  const bytes = Buffer.alloc(Math.floor((clean.length * 5) / 8));
  let value = 0;
  let bits = 0;
  let index = 0;
  for (const character of clean) {
    const digit = BASE32.indexOf(character);
    if (digit === -1) throw new TypeError(`not base32: ${character}`);
    value = ((value << 5) | digit) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (value >>> bits) & 0xff;
    }
  }
  return bytes;
}

/** RFC 4226: the `digits`-digit HOTP value of `key` at `counter` (HMAC-SHA-1, dynamic truncation). */
export function hotp(key: Uint8Array, counter: number, digits = DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac('sha1', key).update(message).digest();
  const offset = (digest[digest.length - 1] as number) & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** A new random secret, as base32 text. */
export const newTotpSecret = (): string => base32Encode(randomBytes(SECRET_BYTES));

/** The `otpauth://` URI an authenticator app reads (Google Authenticator's key URI format), for `label` (the e-mail). */
export function totpUri(secret: string, label: string): string {
  const e = encodeURIComponent;
  return `otpauth://totp/${e(TOTP_ISSUER)}:${e(label)}?issuer=${e(TOTP_ISSUER)}&secret=${e(secret)}&algorithm=SHA1&digits=${DIGITS}&period=${PERIOD_SECONDS}`;
}

/** The time step of `nowMs`. */
export const stepAt = (nowMs: number): number => Math.floor(nowMs / 1000 / PERIOD_SECONDS);

/**
 * The step a code belongs to, within the skew of `nowMs`; undefined for a wrong code. The
 * current step is tried first, then the one before, then the one after; each comparison takes
 * the same time whatever the digits.
 */
export function matchingStep(secret: string, code: string, nowMs: number): number | undefined {
  if (code.length !== DIGITS) return undefined;
  const key = base32Decode(secret);
  const given = Buffer.from(code);
  const now = stepAt(nowMs);
  const steps = [now];
  for (let delta = 1; delta <= SKEW_STEPS; delta += 1) steps.push(now - delta, now + delta);
  for (const step of steps) {
    if (step < 0) continue;
    const expected = Buffer.from(hotp(key, step));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return step;
  }
  return undefined;
}

/** The code of a secret at `nowMs` (tests, and `npm run create-admin`'s first code). */
export const codeAt = (secret: string, nowMs: number): string => hotp(base32Decode(secret), stepAt(nowMs));

/** The entry of a change to the user's second factor. */
export const record = (
  action: Parameters<typeof auditRecord>[0]['action'],
  user: Pick<User, 'tenantId' | 'id'>,
  nowMs: number,
  actor?: Pick<User, 'id' | 'name'>,
) => auditRecord({ scope: { tenantId: user.tenantId }, action, resource: { type: 'user', id: user.id }, ...(actor ? { actor: userActor(actor) } : {}) }, nowMs);
