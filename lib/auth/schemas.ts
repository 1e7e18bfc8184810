import * as classic from 'zod';
import * as z from 'zod/mini';
import { documented, emailField, nameField, uuidField } from '../domain/fields';
import { invitationSchema, ROLES, sessionSchema, userSchema } from './model';
import { auditEntrySchema } from '../audit/model';
import { passwordSchema } from './passwords';
import { schema } from '../domain/schema';

export const registerBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
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
  }),
);

export const loginBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    email: emailField,
    // Any non-empty string up to the policy maximum: a wrong one is a 401, not a 400.
    password: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters')),
    rememberMe: z._default(z.boolean(), false),
  }),
);

/*
 * The views (the answers' schemas, for the tooling) are classic zod and never built in a
 * bundle: lib/domain/schema.ts, "Views".
 */
const user = /* @__PURE__ */ schema(() => classic.object(userSchema.shape));
const session = /* @__PURE__ */ schema(() => classic.object(sessionSchema.shape));
const invitation = /* @__PURE__ */ schema(() => classic.object(invitationSchema.shape));

/** The user object of login, registration, refresh and /auth/me. */
export const userView = /* @__PURE__ */ schema(() => user.pick({ id: true, name: true, email: true, tenantId: true }));
export type UserView = classic.infer<typeof userView>;

/**
 * A user as GET /users shows it to a tenant administrator. `status` is ACTIVE for every
 * listed user: a removed user is gone from the list (docs/decisions.md, "Users of a tenant").
 */
export const USER_STATUSES = ['ACTIVE'] as const;
export const tenantUserView = /* @__PURE__ */ schema(() =>
  user
    .pick({ id: true, name: true, email: true, role: true, createdAt: true })
    .extend({ lastLoginAt: classic.iso.datetime().nullable(), status: classic.enum(USER_STATUSES) }),
);
export type TenantUserView = classic.infer<typeof tenantUserView>;
export const tenantUserListView = /* @__PURE__ */ schema(() => classic.array(tenantUserView));

/** DELETE /users/{id}/mfa: the user's tenant, for a platform administrator (a tenant administrator's own by default). */
export const resetUserMfaQuery = /* @__PURE__ */ schema(() => z.strictObject({ tenantId: z.optional(uuidField) }));

/** PATCH /users/{id}: the role is all an administrator changes. */
export const updateUserBody = /* @__PURE__ */ schema(() => z.strictObject({ role: z.enum(ROLES) }));

/** POST /auth/change-password: the current password (any string up to the maximum: a wrong one is a 400 naming it) and a new one under the registration rules. */
export const changePasswordBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    currentPassword: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters')),
    newPassword: passwordSchema,
  }),
);

export const forgotPasswordBody = /* @__PURE__ */ schema(() => z.strictObject({ email: emailField }));

export const resetPasswordBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    token: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(256, 'is invalid, expired or already used')),
    newPassword: passwordSchema,
  }),
);

export const invitationBody = /* @__PURE__ */ schema(() => z.strictObject({ email: emailField }));

/** An entry of GET /auth/sessions: the session's public fields, and whether it is the caller's. */
export const sessionView = /* @__PURE__ */ schema(() =>
  session.pick({ id: true, createdAt: true, lastActiveAt: true, expiresAt: true, ipAddress: true, userAgent: true }).extend({ current: classic.boolean() }),
);
export type SessionView = classic.infer<typeof sessionView>;

/** POST /auth/invitations: the invitation, valid for 7 days. */
export const invitationView = /* @__PURE__ */ schema(() => invitation.pick({ id: true, email: true, expiresAt: true }));
export type InvitationView = classic.infer<typeof invitationView>;

/**
 * An entry of GET /auth/invitations: a pending invitation, who made it (null: the tenant's
 * sign-up or a platform administrator, for the base account) and when, and the role it admits to.
 */
export const pendingInvitationView = /* @__PURE__ */ schema(() =>
  invitation.pick({ id: true, email: true, invitedBy: true, createdAt: true, expiresAt: true }).extend({ role: classic.enum(ROLES) }),
);
export type PendingInvitationView = classic.infer<typeof pendingInvitationView>;
export const pendingInvitationListView = /* @__PURE__ */ schema(() => classic.array(pendingInvitationView));

export const messageView = /* @__PURE__ */ schema(() => classic.object({ message: classic.string() }));

/** POST /auth/sessions/revoke-others: how many of the caller's other sessions it ended. */
export const revokedSessionsView = /* @__PURE__ */ schema(() => classic.object({ revoked: classic.number().int() }));
export type RevokedSessionsView = classic.infer<typeof revokedSessionsView>;
export type MessageView = classic.infer<typeof messageView>;

/** Login, registration and refresh: `{ user }`. */
export const userEnvelopeView = /* @__PURE__ */ schema(() => classic.object({ user: userView }));
export const sessionListView = /* @__PURE__ */ schema(() => classic.array(sessionView));

/** A TOTP code: 6 digits. */
const totpCode = /* @__PURE__ */ schema(() => z.string().check(z.regex(/^\d{6}$/, 'must be 6 digits')));
/** A recovery code as shown (`xxxxx-xxxxx`), dashes and case optional. */
const recoveryCode = /* @__PURE__ */ schema(() => z.string().check(z.minLength(10, 'is not a recovery code'), z.maxLength(16, 'is not a recovery code')));

/** POST /auth/login: signed in (`user`, both cookies), or, with a second factor, `mfaRequired` and the challenge cookie. */
export const loginResultView = /* @__PURE__ */ schema(() => classic.object({ user: userView.optional(), mfaRequired: classic.literal(true).optional() }));

/** POST /auth/mfa/totp: the secret to add to an authenticator app, as a URI, as text and as a QR code. */
export const totpEnrolmentView = /* @__PURE__ */ schema(() =>
  classic.object({ otpauthUri: classic.string(), secret: classic.string(), qrSvg: classic.string() }),
);

/** POST /auth/mfa/totp: the current password (a step-up; any string up to the maximum: a wrong one is a 400 naming it). */
export const totpStartBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    password: z.string().check(z.minLength(1, 'must not be empty'), z.maxLength(128, 'must be at most 128 characters')),
  }),
);

/** POST /auth/mfa/totp/confirm: a code of the new secret. */
export const totpConfirmBody = /* @__PURE__ */ schema(() => z.strictObject({ code: totpCode }));
/** The recovery codes, shown this once. */
export const totpConfirmedView = /* @__PURE__ */ schema(() => classic.object({ user: userView, recoveryCodes: classic.array(classic.string()) }));

/** DELETE /auth/mfa/totp and POST /auth/mfa/verify: a current code, or an unused recovery code (exactly one). */
export const secondFactorBody = /* @__PURE__ */ schema(() =>
  documented(
    z.strictObject({ code: z.optional(totpCode), recoveryCode: z.optional(recoveryCode) }).check(
      z.refine((body) => (body.code === undefined) !== (body.recoveryCode === undefined), {
        message: 'give exactly one of code and recoveryCode',
        path: ['code'],
      }),
    ),
    // The refinement, as the OpenAPI document states it.
    { oneOf: [{ required: ['code'] }, { required: ['recoveryCode'] }] },
  ),
);

/**
 * GET /auth/me/data: everything the service holds about the signed-in user, as one document
 * (the holder's portable copy, LGPD Art. 19), without a secret: no password or code hash, no
 * TOTP secret, no refresh-token jti, no invitation token hash (docs/decisions.md, "The holder's rights").
 */
export const myDataView = /* @__PURE__ */ schema(() =>
  classic.object({
    generatedAt: classic.iso.datetime(),
    /** The user item whole (it holds no secret: those are in the credentials item), with the tenant's name. */
    user: user.extend({
      tenantName: classic.string().nullable(),
      sessionCount: classic.number().int().nullable(),
      sessionOpenings: classic.number().int().nullable(),
      lastLoginAt: classic.iso.datetime().nullable(),
      totpEnabledAt: classic.iso.datetime().nullable(),
    }),
    /** Every session item of the user not yet expired, live or revoked, newest first. */
    sessions: classic.array(
      session
        .pick({
          id: true,
          status: true,
          rememberMe: true,
          createdAt: true,
          lastActiveAt: true,
          expiresAt: true,
          ipAddress: true,
          userAgent: true,
          revokedAt: true,
        })
        .extend({ current: classic.boolean() }),
    ),
    secondFactor: classic.object({ enabled: classic.boolean(), enabledAt: classic.iso.datetime().nullable(), recoveryCodesRemaining: classic.number().int() }),
    invitations: classic.object({
      /** The invitation of the user's e-mail into the tenant, while its item lasts (registering uses it up). */
      received: classic.array(invitation.pick({ id: true, email: true, invitedBy: true, createdAt: true, expiresAt: true })),
      /** The invitations the user made, pending or expired, until their TTL removes them. */
      sent: classic.array(invitation.pick({ id: true, email: true, invitedBy: true, createdAt: true, expiresAt: true })),
    }),
    /** The tenant's audit entries whose actor is the user, newest first, at most MY_DATA_AUDIT_ENTRIES. */
    auditEntries: classic.array(auditEntrySchema),
    auditEntriesTruncated: classic.boolean(),
    /** When truncated: where the older entries are (GET /audit-events filtered by the actor, read by a tenant administrator); null otherwise. */
    auditEntriesRest: classic.string().nullable(),
  }),
);
export type MyDataView = classic.infer<typeof myDataView>;

/** POST /users/{id}/anonymize: the placeholder the removed user's name and e-mail became, and whether every trace is done. */
export const anonymizedUserView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    name: classic.string(),
    email: classic.string(),
    /** False when the call stopped at its bound (answered 202): call again to go on. */
    complete: classic.boolean(),
  }),
);
export type AnonymizedUserView = classic.infer<typeof anonymizedUserView>;
