import { createHash } from 'node:crypto';
import { compare, hash } from 'bcryptjs';
import * as z from 'zod';
import { storeConfig } from '../config';

/**
 * The password policy of registration and reset: 8 to 128 characters, not blank, and no
 * lone surrogate (it has no UTF-8 form: two such passwords would hash alike).
 */
export const passwordSchema = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(128, 'must be at most 128 characters')
  .refine((value) => value.trim().length > 0, 'must not be blank')
  .refine((value) => !/[\uD800-\uDFFF]/u.test(value), 'must not contain lone surrogates');

/**
 * bcrypt reads only the first 72 bytes of its input, so two long passwords sharing those
 * bytes would be interchangeable. Hashing first with SHA-256 (base64, 44 ASCII bytes, no
 * NUL) gives bcrypt a fixed-size input that depends on every byte of the password.
 */
function prehash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('base64');
}

export function hashPassword(password: string): Promise<string> {
  return hash(prehash(password), storeConfig().BCRYPT_COST);
}

export function verifyPassword(password: string, passwordHash: string): Promise<boolean> {
  return compare(prehash(password), passwordHash);
}

/**
 * A well-formed bcrypt hash at the configured cost that matches no password: login compares
 * against it when the e-mail is unknown, so both answers take the same time.
 */
export function decoyHash(): string {
  const cost = String(storeConfig().BCRYPT_COST).padStart(2, '0');
  return `$2b$${cost}$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW`;
}
