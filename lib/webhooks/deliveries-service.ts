import { randomUUID } from 'node:crypto';
import { auditRecord } from '../audit/record';
import type { Principal } from '../auth/principal';
import { writeWithEntry } from '../audit/repository';
import { getDelivery, listDeliveryPage } from './deliveries-repository';
import { getEndpoint, getSecrets } from './repository';
import { Conflict, Forbidden, NotFound } from '../errors';
import { keyOrderedPage, type Page } from '../pages';
import { ping, retryNow, type DeliveryDeps } from './delivery';
import { locateDelivery } from './delivery-id';
import type { DeliveriesInput, DeliveryView } from './delivery-schemas';
import type { PingEvent, WebhookDelivery } from './model';

/** A delivery as the API shows it: everything but the tenant (the caller's). */
const view = ({ tenantId: _tenant, ...delivery }: WebhookDelivery): DeliveryView => delivery;

const requireTenantAdmin = (principal: Principal, what: string): void => {
  if (principal.role !== 'ADMIN') throw new Forbidden(`Only a tenant administrator may ${what}`);
};

/** The entry of a send an administrator asked for, in every list of the trail (the delivery log holds what came of it). */
async function recordCommand(
  principal: Principal,
  action: 'webhook_endpoint.tested' | 'webhook_endpoint.delivery_retried',
  endpointId: string,
  nowMs: number,
): Promise<void> {
  await writeWithEntry([], auditRecord({ scope: { tenantId: principal.tenantId }, action, resource: { type: 'webhook_endpoint', id: endpointId } }, nowMs));
}

/** An endpoint of the caller's tenant with its secrets, or a 404. */
async function endpointWithSecrets(tenantId: string, endpointId: string) {
  const [endpoint, secrets] = await Promise.all([getEndpoint(tenantId, endpointId), getSecrets(tenantId, endpointId)]);
  if (!endpoint || !secrets) throw new NotFound('No such webhook endpoint');
  return { endpoint, secrets };
}

/**
 * An endpoint's deliveries, newest first (tenant administrators), filtered by status and event
 * type; a 404 for an endpoint not in the caller's tenant.
 */
export async function listWebhookDeliveries(principal: Principal, endpointId: string, query: DeliveriesInput): Promise<Page<DeliveryView>> {
  requireTenantAdmin(principal, "see an endpoint's deliveries");
  if (!(await getEndpoint(principal.tenantId, endpointId))) throw new NotFound('No such webhook endpoint');
  const filters = {
    list: 'webhook-deliveries',
    endpointId,
    ...(query.status ? { status: query.status } : {}),
    ...(query.eventType ? { eventType: query.eventType } : {}),
  };
  return keyOrderedPage({ tenantId: principal.tenantId, filters }, query, async (at) => {
    const { items, lastSk } = await listDeliveryPage(principal.tenantId, endpointId, {
      ...at,
      ...(query.status ? { status: query.status } : {}),
      ...(query.eventType ? { eventType: query.eventType } : {}),
    });
    return { items: items.map(view), ...(lastSk === undefined ? {} : { lastSk }) };
  });
}

/**
 * Send a `ping` to an endpoint now (tenant administrators), enabled or not, so a receiver can be
 * tried before it is enabled again: one attempt, recorded in the endpoint's log with its answer,
 * never retried and no mark on the endpoint's health. The entry, written once it was sent, records the command.
 */
export async function sendTestEvent(principal: Principal, endpointId: string, deps: DeliveryDeps): Promise<DeliveryView> {
  requireTenantAdmin(principal, 'test webhook endpoints');
  const { endpoint, secrets } = await endpointWithSecrets(principal.tenantId, endpointId);
  const nowMs = deps.now();
  const event: PingEvent = { id: randomUUID(), type: 'ping', timestamp: new Date(nowMs).toISOString(), data: { id: endpointId, tenantId: principal.tenantId } };
  const sent = await ping(event, endpoint, secrets, deps);
  await recordCommand(principal, 'webhook_endpoint.tested', endpointId, nowMs);
  return view(sent);
}

/**
 * Send a delivery again now (tenant administrators), whatever its state: one attempt with its
 * answer recorded. A pending delivery keeps its schedule after a failure; a finished one has
 * failed again. A 404 for a delivery not in the caller's tenant, a 409 for an endpoint disabled
 * (enable it first) or a delivery another attempt is sending at the same moment.
 */
export async function retryWebhookDelivery(principal: Principal, deliveryId: string, deps: DeliveryDeps): Promise<DeliveryView> {
  requireTenantAdmin(principal, 'retry webhook deliveries');
  const place = locateDelivery(deliveryId);
  const work = place && (await getDelivery({ tenantId: principal.tenantId, id: deliveryId, ...place }));
  if (!work) throw new NotFound('No such webhook delivery');
  const { endpoint, secrets } = await endpointWithSecrets(principal.tenantId, work.delivery.endpointId);
  if (!endpoint.enabled) throw new Conflict('The endpoint is disabled: enable it first, or send it a test event');
  const nowMs = deps.now();
  const sent = await retryNow(work.delivery, endpoint, secrets, deps);
  if (!sent) throw new Conflict('Another attempt of this delivery is under way; read its log and try again');
  await recordCommand(principal, 'webhook_endpoint.delivery_retried', endpoint.id, nowMs);
  return view(sent);
}
