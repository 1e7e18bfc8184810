import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../domain/hash';

/**
 * The single-use secret of an invitation: 32 random bytes, base64url. It travels only in the
 * invitation e-mail's link; the store keeps only its SHA-256, which the registration
 * transaction compares (see `Admission` in lib/auth/users-repository).
 */
export const newInvitationToken = (): string => randomBytes(32).toString('base64url');

export const hashInvitationToken = (token: string): string => sha256Hex(token);
