import * as classic from 'zod';
import * as z from 'zod/mini';
import { KEY_ID_PATTERN } from '../api-keys/format';
import { cursorParam } from '../domain/cursor';
import { queryInteger, timeBound } from '../domain/fields';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, auditEntrySchema } from './model';
import { schema } from '../domain/schema';

/** GET /audit-events: page sizes, as the stock history's. */
export const MAX_AUDIT_PAGE = 100;
export const DEFAULT_AUDIT_PAGE = 50;

/**
 * A resource id as entries carry it (UUIDs today): it becomes part of a partition key, so
 * only letters, digits and `. _ : @ -`, never the keys' `#` separator.
 */
const resourceIdParam = /* @__PURE__ */ schema(() =>
  z
    .string()
    .check(
      z.minLength(1, 'must not be empty'),
      z.maxLength(100, 'must be at most 100 characters'),
      z.regex(/^[A-Za-z0-9._:@-]+$/, 'must be letters, digits and . _ : @ - only'),
    ),
);

/** A signed-in user's id, an API key's id, or `system` for the platform's own entries (jobs, scripts). */
const actorIdParam = /* @__PURE__ */ schema(() =>
  z.union([z.uuid(), z.string().check(z.regex(KEY_ID_PATTERN)), z.literal('system')], { message: 'must be a user id (UUID), an API key id or system' }),
);

/** GET /audit-events; any other parameter is a 400. */
export const auditEventsQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    actorId: z.optional(actorIdParam),
    action: z.optional(z.enum(AUDIT_ACTIONS, { message: `must be one of ${AUDIT_ACTIONS.join(', ')}` })),
    resourceType: z.optional(z.enum(AUDIT_RESOURCE_TYPES, { message: `must be one of ${AUDIT_RESOURCE_TYPES.join(', ')}` })),
    resourceId: z.optional(resourceIdParam),
    from: z.optional(timeBound),
    to: z.optional(timeBound),
    limit: z._default(queryInteger(1, MAX_AUDIT_PAGE, `must be an integer from 1 to ${MAX_AUDIT_PAGE}`), DEFAULT_AUDIT_PAGE),
    cursor: cursorParam,
    /** The caller's tenant's trail, or the platform's (platform administrators only). */
    scope: z._default(z.enum(['tenant', 'platform'], { message: 'must be tenant or platform' }), 'tenant'),
  }),
);
export type AuditEventsInput = z.output<typeof auditEventsQuery>;

/** GET /audit-events: a page of the trail, newest first. A view (lib/domain/schema.ts, "Views"). */
export const auditEventPageView = /* @__PURE__ */ schema(() =>
  classic.object({
    items: classic.array(auditEntrySchema),
    /** Pass as `cursor` (with the same filters) for the next page; null on the last page. */
    nextCursor: classic.string().nullable(),
  }),
);
export type AuditEventPage = classic.infer<typeof auditEventPageView>;
