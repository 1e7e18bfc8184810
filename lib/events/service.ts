import type { Caller } from '../auth/principal';
import { config } from '../config';
import { readEventPage } from './repository';
import { cursorRefused } from '../domain/cursor';
import { dayStartMs, isDay } from '../domain/days';
import { Forbidden } from '../errors';
import { openPageCursor, sealPageCursor } from '../pages';
import { EVENT_RETENTION_DAYS } from './model';
import type { EventPage, EventsInput } from './schemas';

/**
 * A page of the tenant's events of the last EVENT_RETENTION_DAYS, oldest first, from `from`
 * (tenant administrators, and API keys with `events: read`): how a receiver that was down
 * catches up without replays. The cursor is sealed for the tenant and the filters.
 */
export async function listEvents(principal: Caller, input: EventsInput, nowMs: number): Promise<EventPage> {
  if (principal.role !== 'ADMIN') throw new Forbidden("Only a tenant administrator may read its tenant's events");
  const oldest = nowMs - EVENT_RETENTION_DAYS * 24 * 3600 * 1000;
  const from =
    input.from === undefined ? oldest : Math.max(oldest, isDay(input.from) ? dayStartMs(input.from, config().BUSINESS_TIME_ZONE) : Date.parse(input.from));
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'events', type: input.type, from: input.from } };
  const after = await openPageCursor(input.cursor, cursorScope);
  if (after && after.sk === undefined) throw cursorRefused();
  const { items, lastSk } = await readEventPage(principal.tenantId, {
    fromSk: new Date(from).toISOString(),
    limit: input.limit,
    ...(after?.sk === undefined ? {} : { afterSk: after.sk }),
    ...(input.type === undefined ? {} : { type: input.type }),
  });
  return { items, nextCursor: await sealPageCursor(lastSk === undefined ? undefined : { sk: lastSk }, cursorScope) };
}
