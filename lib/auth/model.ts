import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * The auth entities: the user, its sessions and the invitations into a tenant. Their enums,
 * their shapes as stored and the types derived from them; the views (./schemas) and the
 * repositories all start here.
 */

/** The roles of a user in a tenant; the platform administrator profile is a flag beside them. */
export const ROLES = ['ADMIN', 'MEMBER'] as const;
export type Role = (typeof ROLES)[number];

export const userSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    tenantId: z.uuid(),
    name: z.string(),
    /** Lower-cased; unique across the service (its sentinel). */
    email: z.string(),
    role: z.enum(ROLES),
    /** Platform administrator (GET /tenants); granted only by `npm run create-admin`. */
    platformAdmin: z.boolean(),
    /**
     * Sessions created before this instant are void: the rule of sessions opened before the
     * credential version existed (`isSessionLive`). Every credential change still sets it.
     */
    sessionsValidFrom: z.nullable(z.iso.datetime()),
    /**
     * The version of the user's credentials (password and second factor), 0 when absent. Every
     * change of them moves it on, in the change's transaction, and every write that opens or
     * extends a session is conditioned on the version its check read; a session carries the
     * version it was opened at and dies when the user's moves on (lib/auth/session-state).
     */
    credentialVersion: z.number().check(z.int()),
    /**
     * How many session items the user has, at least (TTL may have removed some): the cap of
     * live sessions reads the list only when this says it may be full (lib/db/repositories/
     * session-opening). Absent on users older than the cap: the list is read once.
     */
    sessionCount: z.optional(z.nullable(z.number().check(z.int()))),
    /**
     * How many sessions were ever opened for the user: every opening moves it on, conditioned on
     * the value read, so two openings serialize even when the cap keeps `sessionCount` where it
     * was (an opening that evicts one leaves the count equal).
     */
    sessionOpenings: z.optional(z.nullable(z.number().check(z.int()))),
    /** When the user last signed in with a password (absent on accounts older than the field). */
    lastLoginAt: z.optional(z.nullable(z.iso.datetime())),
    /** When the second factor was turned on; absent while there is none (the secret itself is a credential). */
    totpEnabledAt: z.optional(z.nullable(z.iso.datetime())),
    /**
     * How many recovery codes are left while the second factor is on: kept beside the codes'
     * hashes, in the same transactions, so that the holder's copy of their data can say it
     * without reading the credentials item (absent on accounts older than it: `npm run migrate`).
     */
    recoveryCodesLeft: z.optional(z.nullable(z.number().check(z.int()))),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  }),
);

export type User = z.infer<typeof userSchema>;

/**
 * A user's secrets, in an item of their own under a partition of their own
 * (`CREDENTIALS#<tenant>#<user>`), so that the IAM policy of every function that does not
 * check a password or a code can refuse the whole partition (docs/decisions.md, "Least
 * privilege"): the authorizer and the rest read the user item, which holds none of these.
 */
export const credentialsSchema = /* @__PURE__ */ schema(() =>
  z.object({
    tenantId: z.uuid(),
    userId: z.uuid(),
    /**
     * The user's credential version, moved on with the user item's in every change of the
     * credentials (0 when absent). A check reads it with the secret it checks, in one item, so
     * the session it opens is bound to the version of that very secret: the user item is read
     * apart (a BatchGetItem is no snapshot) and may already show a newer one.
     */
    credentialVersion: z.number().check(z.int()),
    passwordHash: z.string(),
    /** SHA-256 of the one password-reset token that may still be used. */
    resetTokenHash: z.nullable(z.string()),
    /** The TOTP secret (base32) once confirmed, and the last time step a code was accepted at. */
    totpSecret: z.nullable(z.string()),
    totpLastStep: z.nullable(z.number().check(z.int())),
    /** A secret offered by POST /auth/mfa/totp and not confirmed yet. */
    totpPendingSecret: z.nullable(z.string()),
    /** SHA-256 of each recovery code not used yet (a string set: a use removes one atomically). */
    recoveryCodeHashes: z.nullable(z.array(z.string())),
  }),
);
export type Credentials = z.infer<typeof credentialsSchema>;

export const SESSION_STATUSES = ['ACTIVE', 'REVOKED'] as const;

export const sessionSchema = /* @__PURE__ */ schema(() =>
  z.object({
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
    previousRefreshJti: z.nullable(z.string()),
    rotatedAt: z.nullable(z.iso.datetime()),
    revokedAt: z.nullable(z.iso.datetime()),
    /** The user's credential version when the session opened; absent on sessions older than it. */
    credentialVersion: z.optional(z.nullable(z.number().check(z.int()))),
  }),
);

export type Session = z.infer<typeof sessionSchema>;
export type SessionStatus = Session['status'];

export const invitationSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    tenantId: z.uuid(),
    /** One invitation per e-mail and tenant. */
    email: z.string(),
    /** The administrator who invited; null for a tenant's base account (its sign-up, or a platform administrator's PATCH). */
    invitedBy: z.nullable(z.uuid()),
    /**
     * The invitation of the tenant's base account (its first administrator), made by POST
     * /tenants with `adminEmail` or by a platform administrator's PATCH: registering with it
     * claims the base account, as the tenant's `adminEmail`, in the registration's transaction.
     */
    baseAccount: z.optional(z.nullable(z.boolean())),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    expiresAtEpoch: z.number().check(z.int()),
    /** When its e-mail was sent (epoch seconds). */
    mailedAtEpoch: z.number().check(z.int()),
    /** SHA-256 (hex) of the single-use token the e-mail carries; the token itself is never stored. */
    tokenHash: z.string(),
  }),
);

export type Invitation = z.infer<typeof invitationSchema>;

/** A password-reset token's record, keyed by the token's SHA-256 (the token is never stored). */
export const passwordResetSchema = /* @__PURE__ */ schema(() =>
  z.object({
    tenantId: z.uuid(),
    userId: z.uuid(),
    /** When the token stops working (epoch seconds; also the item's TTL). */
    expiresAtEpoch: z.number().check(z.int()),
  }),
);

export type PasswordReset = z.infer<typeof passwordResetSchema>;

/**
 * A login waiting for its second factor: found by the SHA-256 of the challenge cookie's
 * token, for 5 minutes (TTL), dead after 5 wrong codes.
 */
export const mfaChallengeSchema = /* @__PURE__ */ schema(() =>
  z.object({
    tenantId: z.uuid(),
    userId: z.uuid(),
    rememberMe: z.boolean(),
    failures: z.number().check(z.int()),
    expiresAtEpoch: z.number().check(z.int()),
    /** The user's credential version when the password was checked: verify refuses the challenge once it moved. */
    credentialVersion: z.nullable(z.number().check(z.int())),
  }),
);
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;
