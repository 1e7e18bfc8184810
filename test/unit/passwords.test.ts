import { compare, getRounds, hash } from 'bcryptjs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decoyHash, hashPassword, passwordSchema, verifyPassword } from '../../lib/auth/passwords';
import { resetConfig } from '../../lib/config';

const BCRYPT_HASH = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;

describe('hashPassword and verifyPassword', () => {
  const password = 'correct horse battery staple';
  let stored: string;

  beforeAll(async () => {
    stored = await hashPassword(password);
  });

  it('produces a bcrypt hash at the configured cost', () => {
    expect(stored).toMatch(BCRYPT_HASH);
    expect(getRounds(stored)).toBe(10);
  });

  it('verifies the password it hashed', async () => {
    await expect(verifyPassword(password, stored)).resolves.toBe(true);
  });

  it('refuses another password', async () => {
    await expect(verifyPassword('correct horse battery stapler', stored)).resolves.toBe(false);
  });

  it('salts every hash', async () => {
    const again = await hashPassword(password);

    expect(again).not.toBe(stored);
    await expect(verifyPassword(password, again)).resolves.toBe(true);
  });
});

describe("passwords longer than bcrypt's 72 bytes", () => {
  const shared = 'p'.repeat(72);
  const first = `${shared}-first`;
  const second = `${shared}-second`;

  it('would be interchangeable under plain bcrypt (why the service prehashes)', async () => {
    const plain = await hash(first, 4);

    await expect(compare(second, plain)).resolves.toBe(true);
  });

  it('are not interchangeable when they differ after the first 72 bytes', async () => {
    const stored = await hashPassword(first);

    await expect(verifyPassword(first, stored)).resolves.toBe(true);
    await expect(verifyPassword(second, stored)).resolves.toBe(false);
  });

  it('are not interchangeable when multi-byte characters fill the first 72 bytes', async () => {
    const prefix = 'é'.repeat(36); // 72 bytes in UTF-8
    const stored = await hashPassword(`${prefix}A`);

    await expect(verifyPassword(`${prefix}B`, stored)).resolves.toBe(false);
  });
});

describe('decoyHash', () => {
  afterEach(() => {
    process.env.BCRYPT_COST = '10';
    resetConfig();
  });

  it('is a well-formed bcrypt hash at the configured cost', () => {
    const decoy = decoyHash();

    expect(decoy).toMatch(BCRYPT_HASH);
    expect(getRounds(decoy)).toBe(10);
  });

  it('follows the configured cost', () => {
    process.env.BCRYPT_COST = '12';
    resetConfig();

    expect(decoyHash()).toMatch(/^\$2b\$12\$[./A-Za-z0-9]{53}$/);
  });

  it.each(['', 'password', 'CCCCCCCCCCCCCCCCCCCCC.'])('verifies no password (%j)', async (candidate) => {
    await expect(verifyPassword(candidate, decoyHash())).resolves.toBe(false);
  });
});

describe('passwordSchema', () => {
  const messages = (value: string) => passwordSchema.safeParse(value).error?.issues.map((issue) => issue.message);

  it.each([
    ['8 characters', 'a'.repeat(8)],
    ['128 characters', 'a'.repeat(128)],
    ['inner spaces', 'pass word 1'],
  ])('accepts %s', (_label, value) => {
    expect(passwordSchema.parse(value)).toBe(value);
  });

  it('refuses 7 characters', () => {
    expect(messages('a'.repeat(7))).toEqual(['must be at least 8 characters']);
  });

  it('refuses 129 characters', () => {
    expect(messages('a'.repeat(129))).toEqual(['must be at most 128 characters']);
  });

  it('refuses a blank password', () => {
    expect(messages(' '.repeat(8))).toEqual(['must not be blank']);
  });
});
