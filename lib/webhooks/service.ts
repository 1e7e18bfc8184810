import { randomBytes, randomUUID } from 'node:crypto';
import type { AuditAction, AuditChange } from '../audit/model';
import { auditRecord, changesOf } from '../audit/record';
import type { Principal } from '../auth/principal';
import {
  deleteEndpoint as storeDelete,
  disableEndpoint as storeDisable,
  getEndpoint,
  getSecrets,
  insertEndpoint,
  listEndpointPage,
  rotateSecrets as storeRotation,
  updateEndpoint as storeUpdate,
  type EndpointChanges,
} from './repository';
import { listAdministratorEmails } from '../auth/users-repository';
import { Conflict, Forbidden, NotFound, ValidationError } from '../errors';
import { mailer } from '../mail/mailer';
import { sendQuietly } from '../mail/send-quietly';
import { webhookDisabledMail } from '../mail/templates';
import { keyOrderedPage, type Page, type PageRequest } from '../pages';
import type { WebhookEndpoint, WebhookSecrets } from './model';
import type { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookEndpointSecretView, WebhookEndpointView } from './schemas';
import { checkTarget, UnsafeTarget } from './ssrf';

/** How long the secret a rotation replaces keeps signing, so receivers can move over. */
export const PREVIOUS_SECRET_HOURS = 24;

/** The most endpoints a tenant may have: each event is delivered to each subscribed one. */
export const MAX_ENDPOINTS_PER_TENANT = 20;

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (the Standard Webhooks form). */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The fields an update may change, as the audit entry records them. */
const AUDITED_FIELDS = ['url', 'events', 'enabled', 'disabledReason', 'description'] as const satisfies readonly (keyof WebhookEndpoint)[];

const requireTenantAdmin = (principal: Principal, what: string): void => {
  if (principal.role !== 'ADMIN') throw new Forbidden(`Only a tenant administrator may ${what}`);
};

const view = (endpoint: WebhookEndpoint): WebhookEndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  description: endpoint.description,
  events: endpoint.events,
  enabled: endpoint.enabled,
  disabledReason: endpoint.disabledReason,
  failingSince: endpoint.failingSince,
  createdAt: endpoint.createdAt,
  updatedAt: endpoint.updatedAt,
});

const secretView = (endpoint: WebhookEndpoint, secrets: WebhookSecrets): WebhookEndpointSecretView => ({
  ...view(endpoint),
  secret: secrets.current,
  previousSecretExpiresAt: secrets.previousExpiresAt,
});

const record = (tenantId: string, action: AuditAction, id: string, nowMs: number, changes?: AuditChange[]) =>
  auditRecord({ scope: { tenantId }, action, resource: { type: 'webhook_endpoint', id }, ...(changes ? { changes } : {}) }, nowMs);

/** The SSRF guard at registration: a refused target is a 400 on `url` that says why. */
async function requireSafeTarget(url: string): Promise<void> {
  try {
    await checkTarget(url);
  } catch (error) {
    if (error instanceof UnsafeTarget) throw ValidationError.of('url', error.message);
    throw error;
  }
}

/**
 * Register an endpoint (tenant administrators): its URL passes the SSRF guard, its signing
 * secret is made here and answered this once (a retry makes a second endpoint, which the list
 * shows and DELETE removes: no Idempotency-Key, which would keep the answer and its secret).
 */
export async function createEndpoint(principal: Principal, input: CreateWebhookEndpointInput, nowMs: number): Promise<WebhookEndpointSecretView> {
  requireTenantAdmin(principal, 'register webhook endpoints');
  await requireSafeTarget(input.url);
  const now = new Date(nowMs).toISOString();
  const endpoint: WebhookEndpoint = {
    id: randomUUID(),
    tenantId: principal.tenantId,
    url: input.url,
    description: input.description ?? null,
    events: input.events,
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  const secrets: WebhookSecrets = { tenantId: principal.tenantId, endpointId: endpoint.id, current: newSecret(), previous: null, previousExpiresAt: null };
  const outcome = await insertEndpoint(endpoint, secrets, record(principal.tenantId, 'webhook_endpoint.created', endpoint.id, nowMs), MAX_ENDPOINTS_PER_TENANT);
  if (outcome === 'full') throw new Conflict(`A tenant has at most ${MAX_ENDPOINTS_PER_TENANT} webhook endpoints; delete one first`);
  if (outcome === 'id-taken') throw new Error('a new webhook endpoint id was taken');
  return secretView(endpoint, secrets);
}

/** A page of the tenant's endpoints, by id (tenant administrators); never their secrets. */
export async function listEndpoints(principal: Principal, page: PageRequest): Promise<Page<WebhookEndpointView>> {
  requireTenantAdmin(principal, 'see the webhook endpoints');
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'webhook-endpoints' } }, page, async (at) => {
    const { items, lastSk } = await listEndpointPage(principal.tenantId, at);
    return { items: items.map(view), ...(lastSk === undefined ? {} : { lastSk }) };
  });
}

/**
 * Change an endpoint (tenant administrators): a new URL passes the SSRF guard; disabling
 * records `manual`, enabling clears the reason (whatever disabled it). Conditioned on the
 * endpoint read: a concurrent change is a 409.
 */
export async function updateEndpoint(principal: Principal, id: string, input: UpdateWebhookEndpointInput, nowMs: number): Promise<WebhookEndpointView> {
  requireTenantAdmin(principal, 'change webhook endpoints');
  const read = await getEndpoint(principal.tenantId, id);
  if (!read) throw new NotFound('No such webhook endpoint');
  if (input.url !== undefined && input.url !== read.url) await requireSafeTarget(input.url);
  const changes: EndpointChanges = {};
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.events = input.events;
  if (input.description !== undefined) changes.description = input.description;
  // Enabled again: its failures start over, so the next one does not disable it at once.
  if (input.enabled === true && !read.enabled) Object.assign(changes, { enabled: true, disabledReason: null, failingSince: null });
  if (input.enabled === false && read.enabled) Object.assign(changes, { enabled: false, disabledReason: 'manual' });
  const updatedAt = new Date(nowMs).toISOString();
  const after: WebhookEndpoint = { ...read, ...changes, updatedAt };
  const audit = record(principal.tenantId, 'webhook_endpoint.updated', id, nowMs, changesOf(read, after, AUDITED_FIELDS));
  if (!(await storeUpdate(read, changes, updatedAt, audit))) throw new Conflict('The endpoint was changed or deleted meanwhile; read it and try again');
  return view(after);
}

/** Delete an endpoint and its secrets (tenant administrators): nothing more is delivered to it. */
export async function deleteEndpoint(principal: Principal, id: string, nowMs: number): Promise<void> {
  requireTenantAdmin(principal, 'delete webhook endpoints');
  if (!(await storeDelete(principal.tenantId, id, record(principal.tenantId, 'webhook_endpoint.deleted', id, nowMs))))
    throw new NotFound('No such webhook endpoint');
}

/**
 * A new signing secret (tenant administrators), answered this once; the one it replaces signs
 * too for PREVIOUS_SECRET_HOURS, so receivers can move over. Two rotations at once: one wins,
 * the other is a 409.
 */
export async function rotateSecret(principal: Principal, id: string, nowMs: number): Promise<WebhookEndpointSecretView> {
  requireTenantAdmin(principal, 'rotate webhook secrets');
  const [endpoint, secrets] = await Promise.all([getEndpoint(principal.tenantId, id), getSecrets(principal.tenantId, id)]);
  if (!endpoint || !secrets) throw new NotFound('No such webhook endpoint');
  const rotated: WebhookSecrets = {
    ...secrets,
    current: newSecret(),
    previous: secrets.current,
    previousExpiresAt: new Date(nowMs + PREVIOUS_SECRET_HOURS * 3600 * 1000).toISOString(),
  };
  const audit = record(principal.tenantId, 'webhook_endpoint.secret_rotated', id, nowMs);
  if (!(await storeRotation(principal.tenantId, id, secrets.current, rotated.current, rotated.previousExpiresAt as string, audit))) {
    throw new Conflict('The secret was rotated or the endpoint deleted meanwhile; try again');
  }
  return secretView(endpoint, rotated);
}

/** A tenant's administrators who hear that an endpoint was disabled: the first this many. */
const MAX_NOTIFIED_ADMINISTRATORS = 50;

/**
 * Disable an endpoint for the delivery (`gone`: it answered 410; `failing`: 3 days of
 * failures), with an audit entry `webhook_endpoint.updated` by the system (outside a request),
 * and tell the tenant's administrators by e-mail (a failure to send is logged, never thrown).
 * Nothing happens to one already disabled, whose first reason stays, or deleted.
 */
export async function disableEndpoint(tenantId: string, id: string, reason: NonNullable<WebhookEndpoint['disabledReason']>, nowMs = Date.now()): Promise<void> {
  const changes: AuditChange[] = [
    { field: 'enabled', before: true, after: false },
    { field: 'disabledReason', before: null, after: reason },
  ];
  const disabled = await storeDisable(tenantId, id, reason, record(tenantId, 'webhook_endpoint.updated', id, nowMs, changes));
  if (!disabled || reason === 'manual') return;
  const endpoint = await getEndpoint(tenantId, id);
  if (!endpoint) return;
  await sendQuietly(async () => {
    const send = await mailer();
    for (const email of await listAdministratorEmails(tenantId, MAX_NOTIFIED_ADMINISTRATORS))
      await send.send(webhookDisabledMail(email, { url: endpoint.url, reason, failingSince: endpoint.failingSince }));
  }, 'webhook endpoint notice');
}
