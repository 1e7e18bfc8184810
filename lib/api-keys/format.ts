import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { base62ToUuid, randomBase62, toBase62, UUID_BASE62_CHARS, uuidToBase62 } from '../domain/base62';

/**
 * The text of an API key: `bo_<environment>_<keyId>_<secret><checksum>`, base62 throughout.
 *
 * - `environment`: `live` on deployed stages, `test` on a laptop (`npm start`); a stage
 *   refuses the other's keys, so a key copied out of a test setup opens nothing in production.
 * - `keyId` (30 characters): the tenant's id (a UUID, 22 characters of base62), then the
 *   second it was made (6 characters, so a tenant's keys sort by age) and 2 random ones. The
 *   authorizer reads the key's record and its tenant in one round trip, without an index; the
 *   id is no secret (it is listed, and names the key in the audit trail).
 * - `secret` (43 characters): 32 random bytes.
 * - `checksum` (6 characters): CRC32 of everything before it, so a scanner, or the authorizer
 *   before any read, tells a real key from a mistyped or truncated one.
 *
 * Only the SHA-256 of the whole text is stored; the authorizer compares it in constant time.
 * Pure: no store, no configuration (the authorizer loads it at cold start).
 */

export type KeyEnvironment = 'live' | 'test';

const TENANT_CHARS = UUID_BASE62_CHARS;
const TIME_CHARS = 6;
const RANDOM_ID_CHARS = 2;
export const KEY_ID_CHARS = TENANT_CHARS + TIME_CHARS + RANDOM_ID_CHARS;
const SECRET_CHARS = 43;
const CHECKSUM_CHARS = 6;

/**
 * The pattern of a key, for secret scanners (GitHub secret scanning, gitleaks, trufflehog):
 * documented in docs/integrating-a-point-of-sale.md and tested against generated keys.
 */
export const API_KEY_PATTERN = `bo_(?:live|test)_[0-9A-Za-z]{${KEY_ID_CHARS}}_[0-9A-Za-z]{${SECRET_CHARS + CHECKSUM_CHARS}}`;
const WHOLE_KEY = new RegExp(`^bo_(live|test)_([0-9A-Za-z]{${KEY_ID_CHARS}})_([0-9A-Za-z]{${SECRET_CHARS}})([0-9A-Za-z]{${CHECKSUM_CHARS}})$`);

/** A key id's own pattern (the routes' path parameter, the audit trail's actor filter). */
export const KEY_ID_PATTERN = new RegExp(`^[0-9A-Za-z]{${KEY_ID_CHARS}}$`);

/** A new key id for a tenant at `nowMs` (the caller retries on the rare collision). */
export const newKeyId = (tenantId: string, nowMs: number): string =>
  uuidToBase62(tenantId) + toBase62(BigInt(Math.floor(nowMs / 1000)), TIME_CHARS) + randomBase62(RANDOM_ID_CHARS);

/** The tenant a key id belongs to (undefined when it names no UUID). */
export const tenantOfKeyId = (keyId: string): string | undefined => (KEY_ID_PATTERN.test(keyId) ? base62ToUuid(keyId.slice(0, TENANT_CHARS)) : undefined);

/** The checksum of a key's text before it: CRC32, 6 characters of base62. */
export const checksumOf = (body: string): string => toBase62(BigInt(crc32(body)), CHECKSUM_CHARS);

/** A new key's text, for a key id: the secret is 32 random bytes. */
export function newKeyText(environment: KeyEnvironment, keyId: string): string {
  const secret = toBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), SECRET_CHARS);
  const body = `bo_${environment}_${keyId}_${secret}`;
  return body + checksumOf(body);
}

/** What the text of a well-formed key names; undefined for anything else, the checksum included. */
export interface ParsedKey {
  environment: KeyEnvironment;
  keyId: string;
  tenantId: string;
}

export function parseKeyText(text: string): ParsedKey | undefined {
  const match = WHOLE_KEY.exec(text);
  if (!match) return undefined;
  const [, environment, keyId, , checksum] = match as unknown as [string, KeyEnvironment, string, string, string];
  if (checksumOf(text.slice(0, text.length - CHECKSUM_CHARS)) !== checksum) return undefined;
  const tenantId = tenantOfKeyId(keyId);
  return tenantId === undefined ? undefined : { environment, keyId, tenantId };
}

/** What is stored of a key: the SHA-256 of its whole text, hex. */
export const hashKeyText = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Whether a key's text has the stored hash, in constant time. */
export function keyTextMatches(text: string, storedHash: string): boolean {
  const given = Buffer.from(hashKeyText(text), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored);
}

/** What the list shows of a key: its environment and id, and the first 4 characters of the secret. */
export const keyPrefixOf = (text: string): string => text.slice(0, `bo_live_`.length + KEY_ID_CHARS + 1 + 4);
