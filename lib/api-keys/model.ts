import * as z from 'zod/mini';
import { schema } from '../domain/schema';
import { API_KEY_RESOURCES } from '../domain/key-scopes';

/**
 * An API key: a tenant's credential for a system that feeds the back-office (a point of
 * sale, an online store, an ERP). It belongs to the tenant, not to the administrator who made
 * it, and reaches only the resources its scopes grant (./scopes). Its text is shown once;
 * only its SHA-256 is stored (./format).
 */

export const apiKeySchema = /* @__PURE__ */ schema(() =>
  z.object({
    /** The key id, also inside its text (./format): the tenant's id and 8 characters. */
    id: z.string(),
    tenantId: z.uuid(),
    name: z.string(),
    /** The resources granted, each `read` or `write`; an absent resource is `none`. */
    scopes: z.partialRecord(z.enum(API_KEY_RESOURCES), z.enum(['read', 'write'])),
    /** The one company the key is limited to, or null for every company of the tenant. */
    companyId: z.nullable(z.uuid()),
    /** The key's text up to the first 4 characters of its secret: how a person tells keys apart. */
    prefix: z.string(),
    createdBy: z.object({ id: z.string(), name: z.string() }),
    createdAt: z.iso.datetime(),
    /** After this instant the key opens nothing; null: it does not expire. */
    expiresAt: z.nullable(z.iso.datetime()),
    /** When a request last used it, to within LAST_USED_RESOLUTION_MS, and from which address. */
    lastUsedAt: z.nullable(z.iso.datetime()),
    lastUsedIp: z.nullable(z.string()),
    /** When the secret was last rolled; null before any roll. */
    rolledAt: z.nullable(z.iso.datetime()),
    /** SHA-256 (hex) of the key's current text. */
    secretHash: z.string(),
    /** After a roll, the text before it keeps working until `previousExpiresAt`. */
    previousSecretHash: z.nullable(z.string()),
    previousExpiresAt: z.nullable(z.iso.datetime()),
  }),
);

export type ApiKey = z.infer<typeof apiKeySchema>;

/** `lastUsedAt` moves at most this often: a request within it writes nothing. */
export const LAST_USED_RESOLUTION_MS = 5 * 60 * 1000;
