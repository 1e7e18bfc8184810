import * as z from 'zod';
import { emailField, nameField, uuidField } from '../domain/fields';
import { passwordSchema } from './passwords';

export const registerBody = z.strictObject({
  name: nameField,
  email: emailField,
  password: passwordSchema,
  tenantId: uuidField,
  /**
   * The token of the invitation e-mail's link: needed for every account but a tenant's base
   * account. Any string up to 256 characters; a wrong one is a 403, not a 400.
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
export const userView = z.object({ id: z.uuid(), name: z.string(), email: z.string(), tenantId: z.uuid() });
export type UserView = z.infer<typeof userView>;

export const forgotPasswordBody = z.strictObject({ email: emailField });

export const resetPasswordBody = z.strictObject({
  token: z.string().min(1, 'must not be empty').max(256, 'is invalid, expired or already used'),
  newPassword: passwordSchema,
});

export const invitationBody = z.strictObject({ email: emailField });

export const sessionView = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  lastActiveAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  ipAddress: z.string(),
  userAgent: z.string(),
  current: z.boolean(),
});

export const messageView = z.object({ message: z.string() });
