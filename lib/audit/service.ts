import type { Caller } from '../auth/principal';
import { config } from '../config';
import { readAuditPage, type AuditFilter } from './repository';
import { cursorRefused } from '../domain/cursor';
import { addDays, dayStartMs, isDay } from '../domain/days';
import { Forbidden, ValidationError } from '../errors';
import { openPageCursor, sealPageCursor } from '../pages';
import type { AuditScope } from './model';
import type { AuditEventPage, AuditEventsInput } from './schemas';

/** No entry is older than the trail itself: earlier bounds read as this one (a four-digit year sorts as text). */
const FLOOR_MS = Date.parse('2000-01-01T00:00:00.000Z');
/** The latest instant a bound can name (a later one sorts wrong as text: `+010000-…`). */
const LAST_MS = Date.parse('9999-12-31T23:59:59.999Z');

/** A `from` bound as epoch ms: a business day's first instant, or the date-time. */
const fromMs = (bound: string, timeZone: string): number => (isDay(bound) ? dayStartMs(bound, timeZone) : Date.parse(bound));
/** A `to` bound as epoch ms: a business day's last instant, or the date-time. */
const toMs = (bound: string, timeZone: string): number =>
  isDay(bound) ? (bound === '9999-12-31' ? LAST_MS : dayStartMs(addDays(bound, 1), timeZone) - 1) : Date.parse(bound);

/** Whose trail the caller asked for, if it may read it: its tenant's (tenant administrators) or the platform's (platform administrators). */
function trailOf(principal: Caller, scope: AuditEventsInput['scope']): AuditScope {
  if (scope === 'platform') {
    if (!principal.platformAdmin) throw new Forbidden("Only a platform administrator may read the platform's audit trail");
    return 'platform';
  }
  if (principal.role !== 'ADMIN') throw new Forbidden("Only a tenant administrator may read its tenant's audit trail");
  return { tenantId: principal.tenantId };
}

/**
 * A page of an audit trail, newest first: one Query on the list the filters name
 * (lib/audit/repository `readAuditPage`). The cursor is sealed for the caller's tenant,
 * the trail and the filters; one from another list or tenant, or edited, is a 400.
 */
export async function listAuditEvents(principal: Caller, input: AuditEventsInput): Promise<AuditEventPage> {
  const trail = trailOf(principal, input.scope);
  const { BUSINESS_TIME_ZONE } = config();
  const first = Math.max(input.from ? fromMs(input.from, BUSINESS_TIME_ZONE) : FLOOR_MS, FLOOR_MS);
  const last = Math.min(input.to ? toMs(input.to, BUSINESS_TIME_ZONE) : LAST_MS, LAST_MS);
  if (input.from && input.to && fromMs(input.from, BUSINESS_TIME_ZONE) > last) throw ValidationError.of('to', 'must not be before from');

  const filter: AuditFilter = {
    ...(input.actorId === undefined ? {} : { actorId: input.actorId }),
    ...(input.action === undefined ? {} : { action: input.action }),
    ...(input.resourceType === undefined ? {} : { resourceType: input.resourceType }),
    ...(input.resourceId === undefined ? {} : { resourceId: input.resourceId }),
  };
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'audit', scope: input.scope, ...filter, from: input.from, to: input.to } };
  const after = await openPageCursor(input.cursor, cursorScope);
  if (after && (after.pk === undefined || after.sk === undefined)) throw cursorRefused();

  const { entries, next } =
    first > last
      ? { entries: [], next: undefined }
      : await readAuditPage(trail, {
          filter,
          // `occurredAt#id`: the instant alone sorts before every entry at it; `~` after every id.
          fromSk: new Date(first).toISOString(),
          toSk: `${new Date(last).toISOString()}#~`,
          limit: input.limit,
          ...(after ? { after } : {}),
        });
  return { items: entries, nextCursor: await sealPageCursor(next, cursorScope) };
}
