import * as z from 'zod';
import { documentSchema } from '../domain/documents';
import { emailField, httpsUrlField, requiredText } from '../domain/fields';
import { phoneSchema } from '../domain/phones';

export const PLANS = ['STARTER', 'PROFESSIONAL', 'ENTERPRISE'] as const;

/** A tenant name is a slug: lower-case words joined by single dashes, 3 to 63 characters. */
export const tenantNameField = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(63, 'must be at most 63 characters')
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a slug: lower-case letters and digits joined by single dashes');

/**
 * Names POST /tenants refuses (409, like a taken name): `platform`, where `npm run
 * create-admin` keeps the platform administrators, and names a customer could pass off as
 * the operator's own. create-admin may still create a tenant with one of them.
 */
export const RESERVED_TENANT_NAMES: readonly string[] = [
  'platform', 'admin', 'administrator', 'root', 'system', 'internal', 'staff', 'official',
  'api', 'app', 'www', 'mail', 'support', 'help', 'security', 'status', 'billing', 'abuse',
];

export const createTenantBody = z.strictObject({
  name: tenantNameField,
  plan: z.enum(PLANS, { message: `must be one of ${PLANS.join(', ')}` }),
  brandName: requiredText(200).optional(),
  document: documentSchema.optional(),
  adminEmail: emailField.optional(),
});

/** PATCH: any of the profile fields; null clears an optional one. At least one field. */
export const updateTenantBody = z
  .strictObject({
    brandName: requiredText(200).nullable().optional(),
    document: documentSchema.nullable().optional(),
    address: requiredText(500).nullable().optional(),
    phone: phoneSchema.nullable().optional(),
    logoUrl: httpsUrlField.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' });

export const tenantCreatedView = z.object({
  id: z.uuid(),
  name: z.string(),
  brandName: z.string().nullable(),
  plan: z.enum(PLANS),
});

export const tenantView = z.object({
  id: z.uuid(),
  name: z.string(),
  brandName: z.string().nullable(),
  document: z.string().nullable(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  logoUrl: z.string().nullable(),
  plan: z.enum(PLANS),
});
