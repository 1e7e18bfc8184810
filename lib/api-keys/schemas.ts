import * as classic from 'zod';
import * as z from 'zod/mini';
import { nameField, uuidField } from '../domain/fields';
import { schema } from '../domain/schema';
import { KEY_ID_PATTERN } from './format';
import { API_KEY_RESOURCES, READ_ONLY_RESOURCES } from '../domain/key-scopes';

/** The longest an old secret keeps working after a roll: a week, time enough to redeploy every system that holds it. */
export const MAX_ROLL_OVERLAP_HOURS = 168;

const writable = /* @__PURE__ */ schema(() => z.optional(z.enum(['none', 'read', 'write'], { message: 'must be none, read or write' })));
const readOnly = /* @__PURE__ */ schema(() => z.optional(z.enum(['none', 'read'], { message: 'must be none or read (nothing here is written)' })));

/** What a key may reach: none, read or write per resource (dashboards and audit: none or read); at least one granted. */
export const apiKeyScopesBody = /* @__PURE__ */ schema(() =>
  z
    .strictObject(
      Object.fromEntries(API_KEY_RESOURCES.map((resource) => [resource, READ_ONLY_RESOURCES.includes(resource) ? readOnly : writable])) as Record<
        (typeof API_KEY_RESOURCES)[number],
        typeof writable
      >,
    )
    .check(
      z.refine((scopes) => Object.values(scopes).some((level) => level !== undefined && level !== 'none'), {
        message: 'grant at least one resource read or write',
      }),
    ),
);

export const createApiKeyBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    name: nameField,
    scopes: apiKeyScopesBody,
    /** After this instant the key opens nothing (ISO 8601 with its offset, in the future). */
    expiresAt: z.optional(z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time with its offset' })),
    /** Limit the key to one company of the tenant. */
    companyId: z.optional(uuidField),
  }),
);
export type CreateApiKeyInput = z.output<typeof createApiKeyBody>;

export const rollApiKeyBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    expiresInHours: z
      .number()
      .check(z.int('must be an integer'), z.gte(0, 'must be at least 0'), z.lte(MAX_ROLL_OVERLAP_HOURS, `must be at most ${MAX_ROLL_OVERLAP_HOURS}`)),
  }),
);

/** Path parameters of `/api-keys/{id}`. */
export const apiKeyIdPath = /* @__PURE__ */ schema(() => z.object({ id: z.string().check(z.regex(KEY_ID_PATTERN, 'must be an API key id')) }));

/** A key as the API shows it: never its secret nor its hash. A view (lib/domain/schema.ts, "Views"). */
export const apiKeyView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.string(),
    name: classic.string(),
    scopes: classic.object(Object.fromEntries(API_KEY_RESOURCES.map((resource) => [resource, classic.enum(['none', 'read', 'write'])]))),
    companyId: classic.uuid().nullable(),
    prefix: classic.string().describe('The key up to the first 4 characters of its secret, to tell keys apart.'),
    createdBy: classic.object({ id: classic.string(), name: classic.string() }),
    createdAt: classic.iso.datetime(),
    expiresAt: classic.iso.datetime().nullable(),
    lastUsedAt: classic.iso.datetime().nullable().describe('The last use, to within 5 minutes.'),
    lastUsedIp: classic.string().nullable(),
    rolledAt: classic.iso.datetime().nullable(),
    previousSecretExpiresAt: classic.iso
      .datetime()
      .nullable()
      .describe('After a roll, until when the secret before it keeps working; null when it no longer does.'),
  }),
);
export type ApiKeyView = classic.infer<typeof apiKeyView>;

/** A key just made or rolled: its view and, this once, its text. */
export const apiKeySecretView = /* @__PURE__ */ schema(() =>
  apiKeyView.extend({ key: classic.string().describe('The whole key. Shown this once: only its SHA-256 is kept.') }),
);
export type ApiKeySecretView = ApiKeyView & { key: string };

export const apiKeyListView = /* @__PURE__ */ schema(() => classic.array(apiKeyView));
