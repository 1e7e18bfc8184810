import * as classic from 'zod';
import * as z from 'zod/mini';
import { classicObject, documented, emailField, nameField, uuidField } from '../domain/fields';
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
  invitationToken: z.optional(z.string().check(z.maxLength(256, 'must be at most 256 characters'))),
});

export const loginBody = z.strictObject({
  email: emailField,
  // Any non-empty string up to the policy maximum: a wrong one is a 401, not a 400.
  password: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters')),
  rememberMe: z._default(z.boolean(), false),
});

/*
 * The views (the answers' schemas, for the tooling) are classic zod and never built in a
 * bundle: lib/domain/fields.ts, "Views".
 */
const user = /* @__PURE__ */ classicObject(userSchema);
const session = /* @__PURE__ */ classicObject(sessionSchema);
const invitation = /* @__PURE__ */ classicObject(invitationSchema);

/** The user object of login, registration, refresh and /auth/me. */
export const userView = /* @__PURE__ */ user.pick({ id: true, name: true, email: true, tenantId: true });
export type UserView = classic.infer<typeof userView>;

/**
 * A user as GET /users shows it to a tenant administrator. `status` is ACTIVE for every
 * listed user: a removed user is gone from the list (docs/decisions.md, "Users of a tenant").
 */
export const USER_STATUSES = ['ACTIVE'] as const;
export const tenantUserView = /* @__PURE__ */ user
  .pick({ id: true, name: true, email: true, role: true, createdAt: true })
  .extend({ lastLoginAt: /* @__PURE__ */ classic.iso.datetime().nullable(), status: /* @__PURE__ */ classic.enum(USER_STATUSES) });
export type TenantUserView = classic.infer<typeof tenantUserView>;
export const tenantUserListView = /* @__PURE__ */ classic.array(tenantUserView);

/** DELETE /users/{id}/mfa: the user's tenant, for a platform administrator (a tenant administrator's own by default). */
export const resetUserMfaQuery = z.strictObject({ tenantId: z.optional(uuidField) });

/** PATCH /users/{id}: the role is all an administrator changes. */
export const updateUserBody = z.strictObject({ role: z.enum(ROLES) });

/** POST /auth/change-password: the current password (any string up to the maximum: a wrong one is a 400 naming it) and a new one under the registration rules. */
export const changePasswordBody = z.strictObject({
  currentPassword: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters')),
  newPassword: passwordSchema,
});

export const forgotPasswordBody = z.strictObject({ email: emailField });

export const resetPasswordBody = z.strictObject({
  token: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(256, 'is invalid, expired or already used')),
  newPassword: passwordSchema,
});

export const invitationBody = z.strictObject({ email: emailField });

/** An entry of GET /auth/sessions: the session's public fields, and whether it is the caller's. */
export const sessionView = /* @__PURE__ */ session
  .pick({ id: true, createdAt: true, lastActiveAt: true, expiresAt: true, ipAddress: true, userAgent: true })
  .extend({ current: /* @__PURE__ */ classic.boolean() });
export type SessionView = classic.infer<typeof sessionView>;

/** POST /auth/invitations: the invitation, valid for 7 days. */
export const invitationView = /* @__PURE__ */ invitation.pick({ id: true, email: true, expiresAt: true });
export type InvitationView = classic.infer<typeof invitationView>;

/**
 * An entry of GET /auth/invitations: a pending invitation, who made it (null: the tenant's
 * sign-up or a platform administrator, for the base account) and when, and the role it admits to.
 */
export const pendingInvitationView = /* @__PURE__ */ invitation.pick({ id: true, email: true, invitedBy: true, createdAt: true, expiresAt: true }).extend({ role: /* @__PURE__ */ classic.enum(ROLES) });
export type PendingInvitationView = classic.infer<typeof pendingInvitationView>;
export const pendingInvitationListView = /* @__PURE__ */ classic.array(pendingInvitationView);

export const messageView = /* @__PURE__ */ classic.object({ message: /* @__PURE__ */ classic.string() });

/** POST /auth/sessions/revoke-others: how many of the caller's other sessions it ended. */
export const revokedSessionsView = /* @__PURE__ */ classic.object({ revoked: /* @__PURE__ */ classic.number().int() });
export type RevokedSessionsView = classic.infer<typeof revokedSessionsView>;
export type MessageView = classic.infer<typeof messageView>;

/** Login, registration and refresh: `{ user }`. */
export const userEnvelopeView = /* @__PURE__ */ classic.object({ user: userView });
export const sessionListView = /* @__PURE__ */ classic.array(sessionView);

/** A TOTP code: 6 digits. */
const totpCode = z.string().check(z.regex(/^\d{6}$/, 'must be 6 digits'));
/** A recovery code as shown (`xxxxx-xxxxx`), dashes and case optional. */
const recoveryCode = z.string().check(z.minLength(10, 'is not a recovery code'), z.maxLength(16, 'is not a recovery code'));

/** POST /auth/login: signed in (`user`, both cookies), or, with a second factor, `mfaRequired` and the challenge cookie. */
export const loginResultView = /* @__PURE__ */ classic.object({ user: /* @__PURE__ */ userView.optional(), mfaRequired: /* @__PURE__ */ classic.literal(true).optional() });

/** POST /auth/mfa/totp: the secret to add to an authenticator app, as a URI, as text and as a QR code. */
export const totpEnrolmentView = /* @__PURE__ */ classic.object({ otpauthUri: /* @__PURE__ */ classic.string(), secret: /* @__PURE__ */ classic.string(), qrSvg: /* @__PURE__ */ classic.string() });

/** POST /auth/mfa/totp: the current password (a step-up; any string up to the maximum: a wrong one is a 400 naming it). */
export const totpStartBody = z.strictObject({
  password: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters')),
});

/** POST /auth/mfa/totp/confirm: a code of the new secret. */
export const totpConfirmBody = z.strictObject({ code: totpCode });
/** The recovery codes, shown this once. */
export const totpConfirmedView = /* @__PURE__ */ classic.object({ user: userView, recoveryCodes: /* @__PURE__ */ classic.array(/* @__PURE__ */ classic.string()) });

/** DELETE /auth/mfa/totp and POST /auth/mfa/verify: a current code, or an unused recovery code (exactly one). */
export const secondFactorBody = documented(
  z
    .strictObject({ code: z.optional(totpCode), recoveryCode: z.optional(recoveryCode) })
    .check(z.refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), { message: 'give exactly one of code and recoveryCode', path: ['code'] })),
  // The refinement, as the OpenAPI document states it.
  { oneOf: [{ required: ['code'] }, { required: ['recoveryCode'] }] },
);
