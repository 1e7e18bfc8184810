import * as classic from 'zod';
import * as z from 'zod/mini';
import { EVENT_TYPES } from '../domain/events';
import { documented, requiredText } from '../domain/fields';
import { schema } from '../domain/schema';

/** The longest endpoint URL taken. */
export const MAX_ENDPOINT_URL = 2048;

/**
 * An endpoint's address: an absolute http(s) URL of at most 2048 characters without
 * credentials. That it is https and on a public address is the SSRF guard's to say
 * (lib/webhooks/ssrf), at registration and before each delivery.
 */
const endpointUrl = /* @__PURE__ */ schema(() =>
  documented(
    z.string().check(
      z.trim(),
      z.maxLength(MAX_ENDPOINT_URL, `must be at most ${MAX_ENDPOINT_URL} characters`),
      z.refine((value) => URL.canParse(value), 'must be an absolute URL'),
      z.refine((value) => !URL.canParse(value) || ['https:', 'http:'].includes(new URL(value).protocol), 'must be an https URL'),
      z.refine(
        (value) => !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''),
        'must not hold credentials (user:password@)',
      ),
    ),
    {
      format: 'uri',
      description: 'An https URL on a public address (every address its host resolves to is checked), without credentials.',
      examples: ['https://erp.example.com/hooks/backoffice'],
    },
  ),
);

/** The event types an endpoint receives: at least one, each once. */
const endpointEvents = /* @__PURE__ */ schema(() =>
  z.array(z.enum(EVENT_TYPES, { message: `must be one of ${EVENT_TYPES.join(', ')}` })).check(
    z.minLength(1, 'must name at least one event type'),
    z.refine((events) => new Set(events).size === events.length, 'must not name an event type twice'),
  ),
);

const description = /* @__PURE__ */ schema(() => requiredText(500));

export const createWebhookEndpointBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    url: endpointUrl,
    events: endpointEvents,
    description: z.optional(description),
  }),
);
export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointBody>;

/** Any of the fields (at least one); `null` clears the description; `enabled: true` clears `disabledReason`. */
export const updateWebhookEndpointBody = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      url: z.optional(endpointUrl),
      events: z.optional(endpointEvents),
      enabled: z.optional(z.boolean('must be true or false')),
      description: z.optional(z.nullable(description)),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })),
);
export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointBody>;

/** An endpoint as the API shows it: never its secrets. A view (lib/domain/schema.ts, "Views"). */
export const webhookEndpointView = /* @__PURE__ */ schema(() =>
  classic.object({
    id: classic.uuid(),
    url: classic.string(),
    description: classic.string().nullable(),
    events: classic.array(classic.enum(EVENT_TYPES)),
    enabled: classic.boolean(),
    disabledReason: classic
      .enum(['gone', 'failing', 'manual'])
      .nullable()
      .describe('Why it is disabled: `gone` (it answered 410), `failing` (every delivery failed for 3 days), `manual` (an administrator); null while enabled.'),
    failingSince: classic.iso
      .datetime()
      .nullable()
      .describe('Since when its deliveries fail without a success (after 3 days it is disabled); null when the last one succeeded or none failed.'),
    createdAt: classic.iso.datetime(),
    updatedAt: classic.iso.datetime(),
  }),
);
export type WebhookEndpointView = classic.infer<typeof webhookEndpointView>;

/** An endpoint just made or with a new secret: its view and, this once, its signing secret. */
export const webhookEndpointSecretView = /* @__PURE__ */ schema(() =>
  webhookEndpointView.extend({
    secret: classic
      .string()
      .describe(
        'The signing secret (`whsec_` and base64), for the receiver to verify the `webhook-signature` header with (Standard Webhooks). Shown this once.',
      ),
    previousSecretExpiresAt: classic.iso
      .datetime()
      .nullable()
      .describe('After a rotation, until when the secret before it signs too (each delivery then carries both signatures); null otherwise.'),
  }),
);
export type WebhookEndpointSecretView = WebhookEndpointView & { secret: string; previousSecretExpiresAt: string | null };

export const webhookEndpointListView = /* @__PURE__ */ schema(() => classic.array(webhookEndpointView));
