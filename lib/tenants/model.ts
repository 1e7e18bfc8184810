import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * The tenant: a customer account of the service, holding its users, companies, suppliers and
 * inventory. Its enums, its shape as stored and the types derived from them; the request
 * schemas and views (./schemas) and the repository all start here.
 */

export const PLANS = ['STARTER', 'PROFESSIONAL', 'ENTERPRISE'] as const;
/**
 * ACTIVE signs in; every other status refuses sign-in at once (the authorizer, login, refresh,
 * the second factor and API keys all require ACTIVE). CLOSED: a platform administrator closed
 * it, its deletion is due at `deletionDueAt` and a reopen undoes it until then; DELETING: the
 * deletion started (lib/tenant-jobs), there is no way back.
 */
export const TENANT_STATUSES = ['ACTIVE', 'SUSPENDED', 'CLOSED', 'DELETING'] as const;
/** Whose second factor the tenant requires: nobody's, its administrators', everyone's. */
export const MFA_POLICIES = ['OFF', 'ADMINS', 'ALL'] as const;

/** A stock-low threshold (lib/inventory/stock-low) is days of coverage in hundredths at most: the dashboard's precision. */
export const STOCK_LOW_THRESHOLD_PLACES = 2;
/** The largest stock-low threshold a tenant may set, in days (the dashboard's longest window). */
export const MAX_STOCK_LOW_THRESHOLD_DAYS = 365;

export const tenantSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    /** A slug, unique across the service (its sentinel). */
    name: z.string(),
    brandName: z.nullable(z.string()),
    /** CPF or CNPJ, normalized; the views format it. */
    document: z.nullable(z.string()),
    address: z.nullable(z.string()),
    /** E.164. */
    phone: z.nullable(z.string()),
    logoUrl: z.nullable(z.string()),
    plan: z.enum(PLANS),
    /** Only this e-mail may register the base account, when set. */
    adminEmail: z.nullable(z.string()),
    status: z.enum(TENANT_STATUSES),
    /** Whose second factor the tenant requires (stored tenants without it: OFF). */
    mfaPolicy: z.enum(MFA_POLICIES),
    /**
     * Below how many days of coverage a product is running low (lib/inventory/stock-low): a
     * movement that takes a product below it publishes `product.stock_low`. Days with at most
     * 2 decimal places; absent or null (the default): off.
     */
    stockLowThresholdDays: z.optional(z.nullable(z.number())),
    /** Set once the base (administrator) account registered. */
    baseAccountUserId: z.nullable(z.uuid()),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    /** When a platform administrator closed it (POST /tenants/{id}/close); absent on a tenant never closed, or reopened. */
    closedAt: z.optional(z.iso.datetime()),
    /** When its deletion is due: closedAt + TENANT_DELETION_GRACE_DAYS. */
    deletionDueAt: z.optional(z.iso.datetime()),
    /**
     * The tenant of platform administrators: set only by `npm run create-admin`, when it creates
     * the tenant, and never by a route, so a tenant someone signed up can never receive one.
     */
    platform: z.optional(z.literal(true)),
  }),
);

export type Tenant = z.infer<typeof tenantSchema>;
export type Plan = Tenant['plan'];
export type TenantStatus = Tenant['status'];

/** The fields of the tenant's profile: what PATCH /tenants/{id} may change. */
export type TenantProfile = Pick<Tenant, 'brandName' | 'document' | 'address' | 'phone' | 'logoUrl' | 'mfaPolicy' | 'stockLowThresholdDays'>;
export type MfaPolicy = Tenant['mfaPolicy'];
