import * as classic from 'zod';
import * as z from 'zod/mini';
import { cursorParam } from '../domain/cursor';
import { queryInteger, timeBound } from '../domain/fields';
import { schema } from '../domain/schema';
import { EVENT_TYPES } from './model';

/** GET /events: page sizes. */
export const MAX_EVENT_PAGE = 100;
export const DEFAULT_EVENT_PAGE = 100;

/** GET /events; any other parameter is a 400. */
export const eventsQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    type: z.optional(z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(', ')}` })),
    /** The first instant (inclusive): a business day or an ISO 8601 date-time; default the oldest event kept. */
    from: z.optional(timeBound),
    limit: z._default(queryInteger(1, MAX_EVENT_PAGE, `must be an integer from 1 to ${MAX_EVENT_PAGE}`), DEFAULT_EVENT_PAGE),
    cursor: cursorParam,
  }),
);
export type EventsInput = z.output<typeof eventsQuery>;

/** One event, as GET /events and the webhooks carry it. A view (lib/domain/schema.ts, "Views"). */
export const eventView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.string().describe('Unique: deduplicate by it.'),
    type: classic.enum(EVENT_TYPES),
    timestamp: classic.iso.datetime(),
    data: classic
      .object({ id: classic.string(), tenantId: classic.uuid() })
      .catchall(classic.union([classic.string(), classic.number(), classic.boolean(), classic.null()]))
      .describe(
        'The resource and the few fields a receiver routes on (a movement: productId, warehouseId, type; a company: status; a product: sku; a product running low: sku, warehouseId, coverageDays and thresholdDays as exact decimal strings). Read the rest with an API key.',
      ),
  }),
);

/** GET /events: a page, oldest first. */
export const eventPageView = /* @__PURE__ */ schema(() =>
  classic.object({
    items: classic.array(eventView),
    /** Pass as `cursor` (with the same filters) for the next page; null when there is none yet. */
    nextCursor: classic.string().nullable(),
  }),
);
export type EventPage = classic.infer<typeof eventPageView>;
