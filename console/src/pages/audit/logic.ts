/**
 * The audit section's small rules, apart from React (and from the API client's runtime, so
 * that the browser tests may import them too) so that they are tested alone. Its lists are the
 * API's own enumerations, as the generated client states them (clients/typescript/src/enums.ts).
 */
import { AUDIT_ACTIONS as AUDIT_ACTION_VALUES, AUDIT_RESOURCE_TYPES } from '../../../../clients/typescript/src/enums';

/** Every action of the trail, for the filter: the API's own list, from the generated client. */
export const AUDIT_ACTIONS = AUDIT_ACTION_VALUES;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Every resource type of the trail, for the filter: the API's own list. */
export const RESOURCE_TYPES = AUDIT_RESOURCE_TYPES;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** The query of GET /audit-events the page sends. */
export interface AuditQuery {
  limit: number;
  action?: AuditAction;
  resourceType?: ResourceType;
  actorId?: string;
  from?: string;
  to?: string;
  cursor?: string;
}

/** The filter form as typed: empty strings for "any"; days as `YYYY-MM-DD` (the date inputs' value). */
export interface AuditFilters {
  action: string;
  resourceType: string;
  actorId: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilters = { action: '', resourceType: '', actorId: '', from: '', to: '' };

export const AUDIT_PAGE_SIZE = 25;

const isAction = (value: string): value is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(value);
const isResourceType = (value: string): value is ResourceType => (RESOURCE_TYPES as readonly string[]).includes(value);

/**
 * The query of GET /audit-events for the filters and a cursor: only the filters given (the API
 * refuses unknown or empty parameters), days passed as days (the API reads a day as the whole
 * business day in its own time zone).
 */
export function auditQuery(filters: AuditFilters, cursor: string | undefined, limit = AUDIT_PAGE_SIZE): AuditQuery {
  const query: AuditQuery = { limit };
  if (isAction(filters.action)) query.action = filters.action;
  if (isResourceType(filters.resourceType)) query.resourceType = filters.resourceType;
  if (filters.actorId.trim()) query.actorId = filters.actorId.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(filters.from)) query.from = filters.from;
  if (/^\d{4}-\d{2}-\d{2}$/.test(filters.to)) query.to = filters.to;
  if (cursor) query.cursor = cursor;
  return query;
}

/** How many filters the query holds: with more than one the API may answer a short page that still has a next one. */
export function filterCount(filters: AuditFilters): number {
  return [filters.action, filters.resourceType, filters.actorId.trim(), filters.from, filters.to].filter(Boolean).length;
}

/** Whether to say that a page is short because of the filters, not because the trail ended. */
export function isShortPage(items: number, limit: number, nextCursor: string | null | undefined): boolean {
  return Boolean(nextCursor) && items < limit;
}

/** An audit entry's changes in one line: `email: null → "a@b"`. */
export function changesText(changes: { field: string; before: unknown; after: unknown }[] | null): string {
  if (!changes?.length) return '';
  return changes.map(({ field, before, after }) => `${field}: ${JSON.stringify(before ?? null)} → ${JSON.stringify(after ?? null)}`).join('; ');
}
