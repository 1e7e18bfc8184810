import { createHash } from 'node:crypto';
import { compare, hash } from 'bcryptjs';
import * as z from 'zod/mini';
import { storeConfig } from '../config';
import { schema } from '../domain/schema';

/**
 * The password policy of registration and reset: 8 to 128 characters, not blank, and no
 * lone surrogate (it has no UTF-8 form: two such passwords would hash alike).
 */
export const passwordSchema = /* @__PURE__ */ schema(() =>
  z.string().check(
    z.minLength(8, 'must be at least 8 characters'),
    z.maxLength(128, 'must be at most 128 characters'),
    z.refine((value) => value.trim().length > 0, 'must not be blank'),
    z.refine((value) => !/[\uD800-\uDFFF]/u.test(value), 'must not contain lone surrogates'),
  ),
);

/**
 * bcrypt reads only the first 72 bytes of its input, so two long passwords sharing those
 * bytes would be interchangeable. Hashing first with SHA-256 (base64, 44 ASCII bytes, no
 * NUL) gives bcrypt a fixed-size input that depends on every byte of the password.
 */
function prehash(password: string): string {
  return createHash('sha256').update(password, 'utf8').digest('base64');
}

/**
 * What computes bcrypt: `hash(input, cost)` and `compare(input, hash)`, as bcryptjs's own
 * functions. `input` is already prehashed (below), so a hasher never sees a password.
 */
export interface PasswordHasher {
  hash(input: string, cost: number): Promise<string>;
  compare(input: string, hash: string): Promise<boolean>;
}

/**
 * Where the hasher in use is kept: under a registered symbol on `globalThis`, so that the
 * local emulator's hot reload (a new copy of this module per reload) keeps the one installed.
 */
const HASHER = Symbol.for('backoffice.passwordHasher');
const installed = (): PasswordHasher | undefined => (globalThis as { [HASHER]?: PasswordHasher })[HASHER];

/**
 * Install the hasher that `hashPassword` and `verifyPassword` use; `undefined` restores the
 * default, bcryptjs in this thread. On Lambda nothing installs one: each function has its own
 * vCPU, so blocking its one event loop for a hash costs no other request. The local emulator
 * runs every handler in one process, where it would: there `npm start` installs a pool of
 * worker threads (local/password-pool.ts).
 */
export function usePasswordHasher(next: PasswordHasher | undefined): void {
  (globalThis as { [HASHER]?: PasswordHasher })[HASHER] = next;
}

// bcryptjs is called by name, not through a default hasher object, so a bundle that only
// hashes (or only compares) leaves the other function out.
export function hashPassword(password: string): Promise<string> {
  const input = prehash(password);
  const cost = storeConfig().BCRYPT_COST;
  return installed()?.hash(input, cost) ?? hash(input, cost);
}

export function verifyPassword(password: string, passwordHash: string): Promise<boolean> {
  const input = prehash(password);
  return installed()?.compare(input, passwordHash) ?? compare(input, passwordHash);
}

/**
 * A well-formed bcrypt hash at the configured cost that matches no password: login compares
 * against it when the e-mail is unknown, so both answers take the same time.
 */
export function decoyHash(): string {
  const cost = String(storeConfig().BCRYPT_COST).padStart(2, '0');
  return `$2b$${cost}$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW`;
}
