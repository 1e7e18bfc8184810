import { z } from 'zod';
import { emailField, nameField, uuidField } from '../domain/fields';
import { passwordSchema } from './passwords';

export const registerBody = z.strictObject({
  name: nameField,
  email: emailField,
  password: passwordSchema,
  tenantId: uuidField,
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
