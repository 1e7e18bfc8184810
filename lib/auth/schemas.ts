import * as z from 'zod';
import { emailField, nameField, uuidField } from '../domain/fields';
import { invitationSchema, ROLES, sessionSchema, userSchema } from './model';
import { passwordSchema } from './passwords';

export const registerBody = z.strictObject({
  name: nameField,
  email: emailField,
  password: passwordSchema,
  tenantId: uuidField,
  /**
   * The token of the invitation e-mail's link: needed for every account, the tenant's base
   * account included. Any string up to 256 characters; a missing or wrong one is a 403, not a
   * 400, so the answer is the same whatever the address.
   */
  invitationToken: z.string().max(256, 'must be at most 256 characters').optional(),
});

export const loginBody = z.strictObject({
  email: emailField,
  // Any non-empty string up to the policy maximum: a wrong one is a 401, not a 400.
  password: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
  rememberMe: z.boolean().default(false),
});

/** The user object of login, registration, refresh and /auth/me. */
export const userView = userSchema.pick({ id: true, name: true, email: true, tenantId: true });
export type UserView = z.infer<typeof userView>;

/**
 * A user as GET /users shows it to a tenant administrator. `status` is ACTIVE for every
 * listed user: a removed user is gone from the list (docs/decisions.md, "Users of a tenant").
 */
export const USER_STATUSES = ['ACTIVE'] as const;
export const tenantUserView = userSchema
  .pick({ id: true, name: true, email: true, role: true, createdAt: true })
  .extend({ lastLoginAt: z.iso.datetime().nullable(), status: z.enum(USER_STATUSES) });
export type TenantUserView = z.infer<typeof tenantUserView>;
export const tenantUserListView = z.array(tenantUserView);

/** DELETE /users/{id}/mfa: the user's tenant, for a platform administrator (a tenant administrator's own by default). */
export const resetUserMfaQuery = z.strictObject({ tenantId: uuidField.optional() });

/** PATCH /users/{id}: the role is all an administrator changes. */
export const updateUserBody = z.strictObject({ role: z.enum(ROLES) });

/** POST /auth/change-password: the current password (any string up to the maximum: a wrong one is a 400 naming it) and a new one under the registration rules. */
export const changePasswordBody = z.strictObject({
  currentPassword: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
  newPassword: passwordSchema,
});

export const forgotPasswordBody = z.strictObject({ email: emailField });

export const resetPasswordBody = z.strictObject({
  token: z.string().min(1, 'must not be empty').max(256, 'is invalid, expired or already used'),
  newPassword: passwordSchema,
});

export const invitationBody = z.strictObject({ email: emailField });

/** An entry of GET /auth/sessions: the session's public fields, and whether it is the caller's. */
export const sessionView = sessionSchema
  .pick({ id: true, createdAt: true, lastActiveAt: true, expiresAt: true, ipAddress: true, userAgent: true })
  .extend({ current: z.boolean() });
export type SessionView = z.infer<typeof sessionView>;

/** POST /auth/invitations: the invitation, valid for 7 days. */
export const invitationView = invitationSchema.pick({ id: true, email: true, expiresAt: true });
export type InvitationView = z.infer<typeof invitationView>;

/**
 * An entry of GET /auth/invitations: a pending invitation, who made it (null: the tenant's
 * sign-up or a platform administrator, for the base account) and when, and the role it admits to.
 */
export const pendingInvitationView = invitationSchema.pick({ id: true, email: true, invitedBy: true, createdAt: true, expiresAt: true }).extend({ role: z.enum(ROLES) });
export type PendingInvitationView = z.infer<typeof pendingInvitationView>;
export const pendingInvitationListView = z.array(pendingInvitationView);

export const messageView = z.object({ message: z.string() });

/** POST /auth/sessions/revoke-others: how many of the caller's other sessions it ended. */
export const revokedSessionsView = z.object({ revoked: z.number().int() });
export type RevokedSessionsView = z.infer<typeof revokedSessionsView>;
export type MessageView = z.infer<typeof messageView>;

/** Login, registration and refresh: `{ user }`. */
export const userEnvelopeView = z.object({ user: userView });
export const sessionListView = z.array(sessionView);

/** A TOTP code: 6 digits. */
const totpCode = z.string().regex(/^\d{6}$/, 'must be 6 digits');
/** A recovery code as shown (`xxxxx-xxxxx`), dashes and case optional. */
const recoveryCode = z.string().min(10, 'is not a recovery code').max(16, 'is not a recovery code');

/** POST /auth/login: signed in (`user`, both cookies), or, with a second factor, `mfaRequired` and the challenge cookie. */
export const loginResultView = z.object({ user: userView.optional(), mfaRequired: z.literal(true).optional() });

/** POST /auth/mfa/totp: the secret to add to an authenticator app, as a URI, as text and as a QR code. */
export const totpEnrolmentView = z.object({ otpauthUri: z.string(), secret: z.string(), qrSvg: z.string() });

/** POST /auth/mfa/totp: the current password (a step-up; any string up to the maximum: a wrong one is a 400 naming it). */
export const totpStartBody = z.strictObject({
  password: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
});

/** POST /auth/mfa/totp/confirm: a code of the new secret. */
export const totpConfirmBody = z.strictObject({ code: totpCode });
/** The recovery codes, shown this once. */
export const totpConfirmedView = z.object({ user: userView, recoveryCodes: z.array(z.string()) });

/** DELETE /auth/mfa/totp and POST /auth/mfa/verify: a current code, or an unused recovery code (exactly one). */
export const secondFactorBody = z
  .strictObject({ code: totpCode.optional(), recoveryCode: recoveryCode.optional() })
  .refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), { message: 'give exactly one of code and recoveryCode', path: ['code'] })
  // The refinement, as the OpenAPI document states it.
  .meta({ oneOf: [{ required: ['code'] }, { required: ['recoveryCode'] }] });
