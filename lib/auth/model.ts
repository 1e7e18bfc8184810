import * as z from 'zod';

/**
 * The auth entities: the user, its sessions and the invitations into a tenant. Their enums,
 * their shapes as stored and the types derived from them; the views (./schemas) and the
 * repositories all start here.
 */

/** The roles of a user in a tenant; the platform administrator profile is a flag beside them. */
export const ROLES = ['ADMIN', 'MEMBER'] as const;
export type Role = (typeof ROLES)[number];

export const userSchema = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  /** Lower-cased; unique across the service (its sentinel). */
  email: z.string(),
  passwordHash: z.string(),
  role: z.enum(ROLES),
  /** Platform administrator (GET /tenants); granted only by `npm run create-admin`. */
  platformAdmin: z.boolean(),
  /** Sessions created before this instant are void (set by a password reset). */
  sessionsValidFrom: z.iso.datetime().nullable(),
  /** SHA-256 of the one password-reset token that may still be used. */
  resetTokenHash: z.string().nullable(),
  /** When the user last signed in with a password (absent on accounts older than the field). */
  lastLoginAt: z.iso.datetime().nullable().optional(),
  /**
   * The second factor (issue 17; lib/auth/mfa): the TOTP secret (base32) once confirmed, when,
   * and the last time step a code was accepted at (a code is accepted once). Absent: none.
   */
  totpSecret: z.string().nullable().optional(),
  totpEnabledAt: z.iso.datetime().nullable().optional(),
  totpLastStep: z.number().int().nullable().optional(),
  /** A secret offered by POST /auth/mfa/totp and not confirmed yet. */
  totpPendingSecret: z.string().nullable().optional(),
  /** SHA-256 of each recovery code not used yet. */
  recoveryCodeHashes: z.array(z.string()).nullable().optional(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export type User = z.infer<typeof userSchema>;

export const SESSION_STATUSES = ['ACTIVE', 'REVOKED'] as const;

export const sessionSchema = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  userId: z.uuid(),
  status: z.enum(SESSION_STATUSES),
  rememberMe: z.boolean(),
  createdAt: z.iso.datetime(),
  lastActiveAt: z.iso.datetime(),
  /** Absolute expiry: refreshes never extend it. */
  expiresAt: z.iso.datetime(),
  ipAddress: z.string(),
  userAgent: z.string(),
  /** jti of the one refresh token that may rotate this session now. */
  refreshJti: z.string(),
  /** jti it replaced, and when: a late parallel refresh within the grace period is not reuse. */
  previousRefreshJti: z.string().nullable(),
  rotatedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});

export type Session = z.infer<typeof sessionSchema>;
export type SessionStatus = Session['status'];

export const invitationSchema = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  /** One invitation per e-mail and tenant. */
  email: z.string(),
  invitedBy: z.uuid(),
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  expiresAtEpoch: z.number().int(),
  /** When its e-mail was sent (epoch seconds). */
  mailedAtEpoch: z.number().int(),
  /** SHA-256 (hex) of the single-use token the e-mail carries; the token itself is never stored. */
  tokenHash: z.string(),
});

export type Invitation = z.infer<typeof invitationSchema>;

/** A password-reset token's record, keyed by the token's SHA-256 (the token is never stored). */
export const passwordResetSchema = z.object({
  tenantId: z.uuid(),
  userId: z.uuid(),
  /** When the token stops working (epoch seconds; also the item's TTL). */
  expiresAtEpoch: z.number().int(),
});

export type PasswordReset = z.infer<typeof passwordResetSchema>;


/**
 * A login waiting for its second factor: found by the SHA-256 of the challenge cookie's
 * token, for 5 minutes (TTL), dead after 5 wrong codes.
 */
export const mfaChallengeSchema = z.object({
  tenantId: z.uuid(),
  userId: z.uuid(),
  rememberMe: z.boolean(),
  failures: z.number().int(),
  expiresAtEpoch: z.number().int(),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;
