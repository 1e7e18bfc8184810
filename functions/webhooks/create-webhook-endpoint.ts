import { created, httpHandler } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import * as routes from '../../lib/routes';
import { createWebhookEndpointBody, webhookEndpointSecretView } from '../../lib/webhooks/schemas';
import { createEndpoint, MAX_ENDPOINTS_PER_TENANT } from '../../lib/webhooks/service';

export const handler = httpHandler(routes.createWebhookEndpoint, { body: createWebhookEndpointBody }, async ({ body, principal }) =>
  created(await createEndpoint(principal, body, Date.now())),
);

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 201, description: 'The endpoint, with its signing secret in `secret`: shown this once.', body: webhookEndpointSecretView },
  errors: {
    400: '`url` is not an absolute https URL of at most 2048 characters without credentials, or its host is (or resolves to) an address that is not public: private, loopback, link-local (the cloud metadata service), carrier-grade NAT, multicast or reserved; or `events` is empty or names a type twice.',
    403: 'The caller is not a tenant administrator, or is an API key.',
    409: `The tenant has ${MAX_ENDPOINTS_PER_TENANT} endpoints already.`,
  },
  access: 'tenant administrator',
  description: `Registers an endpoint to receive the tenant's domain events of the types in \`events\`, signed as Standard Webhooks says (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`). The URL must be https on a public address: every address its host resolves to is checked, now and before each delivery. The answer carries the signing secret (\`whsec_…\`) once. A tenant has at most ${MAX_ENDPOINTS_PER_TENANT} endpoints. Not idempotent: a retry registers a second endpoint, which DELETE removes. At most 30 endpoint changes per hour per administrator.`,
  notes: `tenant administrators; 201 with \`secret\` shown once; https to public addresses only; at most ${MAX_ENDPOINTS_PER_TENANT} per tenant; 30 changes per hour`,
  example: { body: { url: 'https://erp.example.com/hooks/backoffice', events: ['stock_movement.created', 'product.created'], description: 'ERP stock sync' } },
});
