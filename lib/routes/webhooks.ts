/** The routes of webhook endpoints and deliveries (functions/webhooks/). */
import type { Route } from './types';
import { WEBHOOK_SENDS, WEBHOOK_SEND_TIMEOUT_SECONDS, WEBHOOK_ENDPOINT_CHANGES } from './limits';

export const createWebhookEndpoint = {
  method: 'POST',
  path: '/webhook-endpoints',
  handler: 'functions/webhooks/create-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  // The endpoint, its secrets, the tenant's endpoint count (UpdateItem, conditioned on the cap) and the entry, in one transaction.
  table: { actions: ['PutItem', 'UpdateItem'], webhookSecrets: 'write' },
  audits: ['webhook_endpoint.created'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: "Register an endpoint to receive the tenant's events; its signing secret is shown once (tenant administrators)",
} as const satisfies Route;

export const listWebhookEndpoints = {
  method: 'GET',
  path: '/webhook-endpoints',
  handler: 'functions/webhooks/list-webhook-endpoints.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['Query'] },
  uses: ['cursor-key'],
  apiKey: false,
  summary: "The tenant's webhook endpoints, never their secrets (tenant administrators)",
} as const satisfies Route;

export const updateWebhookEndpoint = {
  method: 'PATCH',
  path: '/webhook-endpoints/{id}',
  handler: 'functions/webhooks/update-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  audits: ['webhook_endpoint.updated'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: "Change a webhook endpoint's URL, events, description, or enable or disable it (tenant administrators)",
} as const satisfies Route;

export const deleteWebhookEndpoint = {
  method: 'DELETE',
  path: '/webhook-endpoints/{id}',
  handler: 'functions/webhooks/delete-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['PutItem', 'UpdateItem', 'DeleteItem'], webhookSecrets: 'write' },
  audits: ['webhook_endpoint.deleted'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: 'Delete a webhook endpoint and its secrets: nothing more is delivered to it (tenant administrators)',
} as const satisfies Route;

export const rotateWebhookSecret = {
  method: 'POST',
  path: '/webhook-endpoints/{id}/rotate-secret',
  handler: 'functions/webhooks/rotate-webhook-secret.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], webhookSecrets: 'read-write' },
  audits: ['webhook_endpoint.secret_rotated'],
  rateLimits: [WEBHOOK_ENDPOINT_CHANGES],
  apiKey: false,
  summary: 'Give a webhook endpoint a new signing secret, shown once; the previous one signs for 24 hours more (tenant administrators)',
} as const satisfies Route;

export const testWebhookEndpoint = {
  method: 'POST',
  path: '/webhook-endpoints/{id}/test',
  handler: 'functions/webhooks/test-webhook-endpoint.ts',
  auth: 'protected',
  admin: 'tenant',
  // The endpoint and its secrets (GetItem), the delivery (PutItem) and its attempt (UpdateItem), the entry (PutItem).
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], webhookSecrets: 'read' },
  audits: ['webhook_endpoint.tested'],
  rateLimits: [WEBHOOK_SENDS],
  apiKey: false,
  timeoutSeconds: WEBHOOK_SEND_TIMEOUT_SECONDS,
  summary: 'Send a `ping` event to a webhook endpoint now and answer what it replied (tenant administrators)',
} as const satisfies Route;

export const retryWebhookDelivery = {
  method: 'POST',
  path: '/webhook-deliveries/{id}/retry',
  handler: 'functions/webhooks/retry-webhook-delivery.ts',
  auth: 'protected',
  admin: 'tenant',
  // A 410 disables the endpoint and mails the tenant's administrators (Query of its users), as the delivery function does.
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], webhookSecrets: 'read' },
  uses: ['mail'],
  audits: ['webhook_endpoint.delivery_retried'],
  rateLimits: [WEBHOOK_SENDS],
  apiKey: false,
  timeoutSeconds: WEBHOOK_SEND_TIMEOUT_SECONDS,
  summary: 'Send a delivery again now and answer what the endpoint replied (tenant administrators)',
} as const satisfies Route;

export const listWebhookDeliveries = {
  method: 'GET',
  path: '/webhook-endpoints/{id}/deliveries',
  handler: 'functions/webhooks/list-webhook-deliveries.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: false,
  summary: "A webhook endpoint's deliveries and their attempts, newest first (tenant administrators)",
} as const satisfies Route;
