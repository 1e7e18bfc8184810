import * as classic from 'zod';
import * as z from 'zod/mini';
import { parseScaled } from '../domain/decimal';
import { documentSchema } from '../domain/documents';
import { emailField, httpsUrlField, requiredText, uuidField } from '../domain/fields';
import { EXPORT_STATUSES } from '../tenant-jobs/model';
import { phoneSchema } from '../domain/phones';
import { MAX_STOCK_LOW_THRESHOLD_DAYS, MFA_POLICIES, PLANS, STOCK_LOW_THRESHOLD_PLACES, TENANT_STATUSES, tenantSchema, type Tenant } from './model';
import { schema } from '../domain/schema';

/** A tenant name is a slug: lower-case words joined by single dashes, 3 to 63 characters. */
export const tenantNameField = /* @__PURE__ */ schema(() =>
  z
    .string()
    .check(
      z.minLength(3, 'must be at least 3 characters'),
      z.maxLength(63, 'must be at most 63 characters'),
      z.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a slug: lower-case letters and digits joined by single dashes'),
    ),
);

/**
 * Names POST /tenants refuses (409, like a taken name): `platform`, where `npm run
 * create-admin` keeps the platform administrators, and names a customer could pass off as
 * the operator's own. create-admin may still create a tenant with one of them.
 */
export const RESERVED_TENANT_NAMES: readonly string[] = [
  'platform',
  'admin',
  'administrator',
  'root',
  'system',
  'internal',
  'staff',
  'official',
  'api',
  'app',
  'www',
  'mail',
  'support',
  'help',
  'security',
  'status',
  'billing',
  'abuse',
];

/** The fields a client writes: every field of the model but those the service sets. */
type TenantInputField = Exclude<keyof Tenant, 'id' | 'status' | 'baseAccountUserId' | 'createdAt' | 'updatedAt' | 'platform' | 'closedAt' | 'deletionDueAt'>;

/*
 * The rules POST /tenants takes, each its own schema: its body names them, not `tenantInput`,
 * so that its function does not hold the rules it never uses (the phone's: libphonenumber and
 * its metadata, 70 KB).
 */
const brandNameField = /* @__PURE__ */ schema(() => requiredText(200));
const planField = /* @__PURE__ */ schema(() => z.enum(PLANS, { message: `must be one of ${PLANS.join(', ')}` }));

/** Days of coverage, more than 0 and at most a year, with at most 2 decimal places (checked on the digits, never by float arithmetic); null turns it off. */
const stockLowThresholdField = /* @__PURE__ */ schema(() =>
  z.number().check(
    z.gt(0, 'must be greater than 0 (null turns it off)'),
    z.lte(MAX_STOCK_LOW_THRESHOLD_DAYS, `must be at most ${MAX_STOCK_LOW_THRESHOLD_DAYS}`),
    z.refine((value) => parseScaled(value, STOCK_LOW_THRESHOLD_PLACES) !== undefined, `must have at most ${STOCK_LOW_THRESHOLD_PLACES} decimal places`),
  ),
);

/**
 * What a client's value of each field must be: one rule per field of the model, so a field
 * added to the model is a compile error here until it has a rule (or joins the exclusions).
 */
const tenantInput = /* @__PURE__ */ schema(
  () =>
    ({
      name: tenantNameField,
      brandName: brandNameField,
      document: documentSchema,
      address: requiredText(500),
      phone: phoneSchema,
      logoUrl: httpsUrlField,
      plan: planField,
      adminEmail: emailField,
      mfaPolicy: z.enum(MFA_POLICIES, { message: `must be one of ${MFA_POLICIES.join(', ')}` }),
      stockLowThresholdDays: stockLowThresholdField,
    }) satisfies { [K in TenantInputField]: z.ZodMiniType<NonNullable<Tenant[K]>> },
);

export const createTenantBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    name: tenantNameField,
    plan: planField,
    brandName: z.optional(brandNameField),
    document: z.optional(documentSchema),
    adminEmail: z.optional(emailField),
  }),
);

/**
 * PATCH: any of the profile fields; null clears an optional one. At least one field.
 * `adminEmail` (platform administrators only) invites the tenant's administrator.
 */
export const updateTenantBody = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      adminEmail: z.optional(tenantInput.adminEmail),
      brandName: z.optional(z.nullable(tenantInput.brandName)),
      document: z.optional(z.nullable(tenantInput.document)),
      address: z.optional(z.nullable(tenantInput.address)),
      phone: z.optional(z.nullable(tenantInput.phone)),
      logoUrl: z.optional(z.nullable(tenantInput.logoUrl)),
      mfaPolicy: z.optional(tenantInput.mfaPolicy),
      stockLowThresholdDays: z.optional(z.nullable(tenantInput.stockLowThresholdDays)),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })),
);

/*
 * The views (the answers' schemas, for the tooling) are classic zod and never built in a
 * bundle: lib/domain/schema.ts, "Views".
 */
const tenant = /* @__PURE__ */ schema(() => classic.object(tenantSchema.shape));

/** POST /tenants: the new tenant in brief. */
export const tenantCreatedView = /* @__PURE__ */ schema(() => tenant.pick({ id: true, name: true, brandName: true, plan: true }));

/** A tenant as the API shows it: its profile and plan, the document formatted with punctuation. */
export const tenantView = /* @__PURE__ */ schema(() =>
  tenant.pick({ id: true, name: true, brandName: true, document: true, address: true, phone: true, logoUrl: true, plan: true, mfaPolicy: true }).extend({
    stockLowThresholdDays: classic
      .number()
      .nullable()
      .describe(
        "Below how many days of coverage (the dashboard's, over 30 days of sales) a stock movement publishes `product.stock_low` for a product; null: off (the default).",
      ),
    status: classic
      .enum(TENANT_STATUSES)
      .exclude(['ACTIVE'])
      .optional()
      .describe(
        'Only on a tenant that is not active: `CLOSED` (POST /tenants/{id}/close; sign-in refused, deletion due at `deletionDueAt`), `DELETING` (its deletion has started) or `SUSPENDED`.',
      ),
    deletionDueAt: classic.iso.datetime().optional().describe('Only on a closed tenant (and one being deleted): when its deletion starts.'),
  }),
);

export type TenantView = classic.infer<typeof tenantView>;
export type TenantCreatedView = classic.infer<typeof tenantCreatedView>;
export type CreateTenantInput = z.output<typeof createTenantBody>;
export type UpdateTenantInput = z.output<typeof updateTenantBody>;

export const tenantListView = /* @__PURE__ */ schema(() => classic.array(tenantView));

/** POST /tenants/{id}/close and /reopen: the tenant's status and, while closed, when its deletion is due. */
export const tenantClosureView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    name: classic.string(),
    status: classic.enum(TENANT_STATUSES),
    closedAt: classic.iso.datetime().nullable().describe('When it was closed; null once reopened.'),
    deletionDueAt: classic.iso
      .datetime()
      .nullable()
      .describe(
        'When its deletion starts (closedAt + TENANT_DELETION_GRACE_DAYS, 30 days unless set); until then POST /tenants/{id}/reopen undoes the close. Null once reopened.',
      ),
  }),
);
export type TenantClosureView = classic.infer<typeof tenantClosureView>;

const downloadLink = /* @__PURE__ */ schema(() => classic.string().describe('A GET link to the file, valid 15 minutes (presigned).'));

/** An export of every item of a tenant (POST /tenants/{id}/export, GET /tenants/{id}/exports/{exportId}). */
export const tenantExportView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    tenantId: classic.uuid(),
    status: classic.enum(EXPORT_STATUSES),
    createdAt: classic.iso.datetime(),
    finishedAt: classic.iso.datetime().nullable(),
    items: classic.number().int().describe("Lines written so far (every data file's)."),
    manifestSha256: classic
      .string()
      .nullable()
      .describe("The SHA-256 (hex) of manifest.json, once the export succeeded: the checksum of the whole export (the manifest holds each file's)."),
    failure: classic
      .string()
      .nullable()
      .describe("Why a failed export failed (its requester is no longer a platform administrator, or the tenant's deletion started); null otherwise."),
    downloads: classic
      .object({
        expiresAt: classic.iso.datetime(),
        manifest: downloadLink,
        checksum: downloadLink,
        files: classic.array(classic.object({ name: classic.string(), items: classic.number().int(), sha256: classic.string(), url: downloadLink })),
      })
      .nullable()
      .describe('Once succeeded: links to manifest.json, manifest.json.sha256 and each NDJSON file; null before.'),
  }),
);
export type TenantExportView = classic.infer<typeof tenantExportView>;

/** GET /tenants/{id}/exports/{exportId}. */
export const tenantExportPath = /* @__PURE__ */ schema(() => z.object({ id: uuidField, exportId: uuidField }));
