import type { Principal } from '../auth/principal';
import { listDeliveryPage } from '../db/repositories/webhook-deliveries';
import { getEndpoint } from '../db/repositories/webhooks';
import { Forbidden, NotFound } from '../errors';
import { keyOrderedPage, type Page } from '../pages';
import type { DeliveriesInput, DeliveryView } from './delivery-schemas';
import type { WebhookDelivery } from './model';

/** A delivery as the API shows it: everything but the tenant (the caller's). */
const view = ({ tenantId: _tenant, ...delivery }: WebhookDelivery): DeliveryView => delivery;

/**
 * An endpoint's deliveries, newest first (tenant administrators), filtered by status and event
 * type; a 404 for an endpoint not in the caller's tenant.
 */
export async function listWebhookDeliveries(principal: Principal, endpointId: string, query: DeliveriesInput): Promise<Page<DeliveryView>> {
  if (principal.role !== 'ADMIN') throw new Forbidden("Only a tenant administrator may see an endpoint's deliveries");
  if (!(await getEndpoint(principal.tenantId, endpointId))) throw new NotFound('No such webhook endpoint');
  const filters = { list: 'webhook-deliveries', endpointId, ...(query.status ? { status: query.status } : {}), ...(query.eventType ? { eventType: query.eventType } : {}) };
  return keyOrderedPage({ tenantId: principal.tenantId, filters }, query, async (at) => {
    const { items, lastSk } = await listDeliveryPage(principal.tenantId, endpointId, { ...at, ...(query.status ? { status: query.status } : {}), ...(query.eventType ? { eventType: query.eventType } : {}) });
    return { items: items.map(view), ...(lastSk === undefined ? {} : { lastSk }) };
  });
}
