import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  checksumOf,
  hashKeyText,
  keyPrefixOf,
  keyTextMatches,
  KEY_ID_PATTERN,
  newKeyId,
  newKeyText,
  parseKeyText,
  tenantOfKeyId,
} from '../../lib/api-keys/format';

const TENANT = '6f1c1f0e-3f5a-4b8e-9a52-0c3f9d2b7a10';
const NOW = Date.parse('2026-11-26T10:00:00.000Z');
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('the text of an API key', () => {
  it('is bo_<environment>_<key id>_<secret><checksum>, matching the documented pattern whole', () => {
    const keyId = newKeyId(TENANT, NOW);
    const text = newKeyText('live', keyId);

    expect(text).toMatch(new RegExp(`^${API_KEY_PATTERN}$`));
    expect(text.startsWith(`bo_live_${keyId}_`)).toBe(true);
    expect(text).toHaveLength('bo_live_'.length + 30 + 1 + 43 + 6);
    expect(parseKeyText(text)).toEqual({ environment: 'live', keyId, tenantId: TENANT });
    expect(parseKeyText(newKeyText('test', keyId))).toEqual({ environment: 'test', keyId, tenantId: TENANT });
  });

  it('carries its tenant in its id, for any tenant id (leading zeros included)', () => {
    for (const tenantId of [TENANT, randomUUID(), '00000000-0000-4000-8000-000000000001', 'ffffffff-ffff-4fff-bfff-ffffffffffff']) {
      const keyId = newKeyId(tenantId, NOW);
      expect(keyId).toMatch(KEY_ID_PATTERN);
      expect(tenantOfKeyId(keyId)).toBe(tenantId);
    }
  });

  it('sorts the ids of one tenant by the second they were made', () => {
    const older = newKeyId(TENANT, NOW);
    const newer = newKeyId(TENANT, NOW + 1000);
    expect(older.slice(0, 28) < newer.slice(0, 28)).toBe(true);
  });

  it('ends with the CRC32 of everything before it, in 6 characters of base62', () => {
    const text = newKeyText('live', newKeyId(TENANT, NOW));
    const body = text.slice(0, -6);
    let value = BigInt(crc32(body));
    let expected = '';
    while (value > 0n) {
      expected = ALPHABET[Number(value % 62n)] + expected;
      value /= 62n;
    }
    expect(text.slice(-6)).toBe(expected.padStart(6, '0'));
    expect(checksumOf(body)).toBe(text.slice(-6));
  });

  it('is refused when any one character changes, wherever it is (the checksum catches a typo before any read)', () => {
    const text = newKeyText('live', newKeyId(TENANT, NOW));
    let refused = 0;
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index] as string;
      const other = char === 'a' ? 'b' : char === '_' ? '-' : 'a';
      const changed = text.slice(0, index) + other + text.slice(index + 1);
      expect(parseKeyText(changed), `position ${index}`).toBeUndefined();
      refused += 1;
    }
    expect(refused).toBe(text.length);
  });

  it('is refused truncated, extended, in another case or with blanks', () => {
    const text = newKeyText('live', newKeyId(TENANT, NOW));
    for (const variant of [text.slice(0, -1), `${text}0`, text.toUpperCase(), ` ${text}`, `${text}\n`, text.replace('bo_live_', 'bo_prod_'), '']) {
      expect(parseKeyText(variant)).toBeUndefined();
    }
  });

  it('is two different texts for two keys made the same instant', () => {
    const keyId = newKeyId(TENANT, NOW);
    expect(newKeyText('live', keyId)).not.toBe(newKeyText('live', keyId));
  });

  it('is stored as the SHA-256 of its text alone, compared whole', () => {
    const text = newKeyText('live', newKeyId(TENANT, NOW));
    const stored = hashKeyText(text);

    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(text.slice(-49));
    expect(keyTextMatches(text, stored)).toBe(true);
    expect(keyTextMatches(newKeyText('live', newKeyId(TENANT, NOW)), stored)).toBe(false);
    expect(keyTextMatches(text, 'not a hash')).toBe(false);
  });

  it('shows as its prefix: the environment, the id and the first 4 characters of the secret', () => {
    const keyId = newKeyId(TENANT, NOW);
    const text = newKeyText('test', keyId);
    expect(keyPrefixOf(text)).toBe(text.slice(0, `bo_test_${keyId}_`.length + 4));
  });
});
