import * as classic from 'zod';
import * as z from 'zod/mini';
import { cursorParam } from '../domain/cursor';
import { queryInteger } from '../domain/fields';
import { schema } from '../domain/schema';
import { DELIVERY_ID_PATTERN } from './delivery-id';
import { DELIVERED_TYPES } from './model';
import { MAX_LIST_PAGE, DEFAULT_LIST_PAGE } from '../pages';

/** The `{id}` of POST /webhook-deliveries/{id}/retry. */
export const deliveryIdPath = /* @__PURE__ */ schema(() =>
  z.object({ id: z.string().check(z.regex(DELIVERY_ID_PATTERN, 'must be a webhook delivery id: 40 letters and digits')) }),
);

/** GET /webhook-endpoints/{id}/deliveries; any other parameter is a 400. */
export const deliveriesQuery = /* @__PURE__ */ schema(() =>
  z.strictObject({
    status: z.optional(z.enum(['pending', 'succeeded', 'failed'], { message: 'must be one of pending, succeeded, failed' })),
    eventType: z.optional(z.enum(DELIVERED_TYPES, { message: `must be one of ${DELIVERED_TYPES.join(', ')}` })),
    limit: z._default(queryInteger(1, MAX_LIST_PAGE, `must be an integer from 1 to ${MAX_LIST_PAGE}`), DEFAULT_LIST_PAGE),
    cursor: cursorParam,
  }),
);
export type DeliveriesInput = z.output<typeof deliveriesQuery>;

/** A delivery as the API shows it. A view (lib/domain/schema.ts, "Views"). */
export const deliveryView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.string().regex(DELIVERY_ID_PATTERN).describe('One per event and endpoint: `POST /webhook-deliveries/{id}/retry` sends it again.'),
    endpointId: classic.uuid(),
    eventId: classic.string().describe('The event delivered: the `webhook-id` header of each attempt.'),
    eventType: classic.enum(DELIVERED_TYPES).describe('The event delivered, or `ping` (a test an administrator sent).'),
    status: classic.enum(['pending', 'succeeded', 'failed']),
    attempts: classic.array(
      classic.object({
        at: classic.iso.datetime(),
        statusCode: classic
          .number()
          .int()
          .nullable()
          .describe("The receiver's status code; null when no answer came (timeout, refused connection, target refused)."),
        latencyMs: classic.number().int(),
        response: classic.string().describe("The first 1 KB of the answer's body, or why no answer came."),
      }),
    ),
    nextAttemptAt: classic.iso.datetime().nullable().describe('When the next attempt is due; null once it succeeded or failed.'),
    createdAt: classic.iso.datetime(),
  }),
);
export type DeliveryView = classic.infer<typeof deliveryView>;
export const deliveryListView = /* @__PURE__ */ schema(() => classic.array(deliveryView));
