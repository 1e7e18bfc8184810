import * as z from 'zod';
import { cursorParam } from '../domain/cursor';
import { integerParam, timeBound } from '../domain/fields';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, auditEntrySchema } from './model';

/** GET /audit-events: page sizes, as the stock history's. */
export const MAX_AUDIT_PAGE = 100;
export const DEFAULT_AUDIT_PAGE = 50;


/**
 * A resource id as entries carry it (UUIDs today): it becomes part of a partition key, so
 * only letters, digits and `. _ : @ -`, never the keys' `#` separator.
 */
const resourceIdParam = z
  .string()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9._:@-]+$/, 'must be letters, digits and . _ : @ - only');

/** A signed-in user's id, or `system` for the platform's own entries (jobs, scripts). */
const actorIdParam = z.union([z.uuid(), z.literal('system')], { message: 'must be a user id (UUID) or system' });

/** GET /audit-events; any other parameter is a 400. */
export const auditEventsQuery = z.strictObject({
  actorId: actorIdParam.optional(),
  action: z.enum(AUDIT_ACTIONS, { message: `must be one of ${AUDIT_ACTIONS.join(', ')}` }).optional(),
  resourceType: z.enum(AUDIT_RESOURCE_TYPES, { message: `must be one of ${AUDIT_RESOURCE_TYPES.join(', ')}` }).optional(),
  resourceId: resourceIdParam.optional(),
  from: timeBound.optional(),
  to: timeBound.optional(),
  limit: integerParam(1, MAX_AUDIT_PAGE, `must be an integer from 1 to ${MAX_AUDIT_PAGE}`).default(DEFAULT_AUDIT_PAGE),
  cursor: cursorParam,
  /** The caller's tenant's trail, or the platform's (platform administrators only). */
  scope: z.enum(['tenant', 'platform'], { message: 'must be tenant or platform' }).default('tenant'),
});
export type AuditEventsInput = z.output<typeof auditEventsQuery>;

/** GET /audit-events: a page of the trail, newest first. */
export const auditEventPageView = z.object({
  items: z.array(auditEntrySchema),
  /** Pass as `cursor` (with the same filters) for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditEventPage = z.infer<typeof auditEventPageView>;
