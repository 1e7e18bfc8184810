import { randomUUID } from 'node:crypto';
import { auditRecord, changesOf } from '../audit/record';
import type { Caller } from '../auth/principal';
import { getMany } from '../db/batch';
import { keys } from '../db/keys';
import { cursorRefused } from '../domain/cursor';
import { parseScaled, QUANTITY_PLACES, scaledToNumber, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import { matchedVersions, requireMatch, versionEtag } from '../domain/etag';
import { Conflict, NotFound, ValidationError } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { quantityFitsUnit } from '../inventory/model';
import { toProduct } from '../inventory/product-repository';
import { moneyOf, quantityOf } from '../inventory/rounding';
import { historyRange } from '../inventory/service';
import { openPageCursor, sealPageCursor, type Page } from '../pages';
import { ALLOWED, itemValue, orderCode, orderTotal, type PurchaseOrder, type PurchaseOrderItem } from './model';
import { findOrder, insertOrder, listOf, modifyOrder, readOrderPage } from './repository';
import type { CreatePurchaseOrderBody, ListPurchaseOrdersInput, PurchaseOrderView, SendPurchaseOrderBody, UpdatePurchaseOrderBody } from './schemas';
import { purchaseOrderMail } from './mail';
import { attachmentMailer } from '../mail/attachment-mailer';
import { formatDocument } from '../domain/documents';

/**
 * Purchase orders: create (numbered per company), read, list, change (items only in DRAFT),
 * cancel; each change audited with its `purchase_order.*` event.
 */

export const purchaseOrderEtag = (order: { version: number }): string => versionEtag(order);

export const purchaseOrderViewOf = (order: PurchaseOrder): PurchaseOrderView => ({
  id: order.id,
  code: orderCode(order.number),
  number: order.number,
  companyId: order.companyId,
  supplierId: order.supplierId,
  warehouseId: order.warehouseId,
  status: order.status,
  expectedAt: order.expectedAt,
  notes: order.notes,
  items: order.items.map((item) => ({
    productId: item.productId,
    quantity: quantityOf(item.quantity),
    unitCost: scaledToNumber(item.unitCost, UNIT_COST_PLACES),
    total: moneyOf(itemValue(item), VALUE_PLACES),
    received: quantityOf(item.received),
  })),
  total: moneyOf(orderTotal(order), VALUE_PLACES),
  createdAt: order.createdAt,
  updatedAt: order.updatedAt,
  sentAt: order.sentAt,
  cancelledAt: order.cancelledAt,
  version: order.version,
});

/** The audited fields of an order as the API shows them. */
const auditedFields = (order: PurchaseOrder) => {
  const view = purchaseOrderViewOf(order);
  return {
    status: view.status,
    expectedAt: view.expectedAt,
    notes: view.notes,
    items: view.items.map(({ productId, quantity, unitCost }) => ({ productId, quantity, unitCost })),
    total: view.total,
  };
};

type OrderAction = 'purchase_order.created' | 'purchase_order.updated' | 'purchase_order.sent' | 'purchase_order.cancelled';

const audited = (principal: Pick<Caller, 'tenantId'>, action: OrderAction, order: PurchaseOrder, nowMs: number, before?: PurchaseOrder) =>
  auditRecord(
    {
      scope: { tenantId: principal.tenantId },
      action,
      resource: { type: 'purchase_order', id: order.id },
      ...(before ? { changes: changesOf(auditedFields(before), auditedFields(order), ['status', 'expectedAt', 'notes', 'items', 'total']) } : {}),
      eventFields: {
        code: orderCode(order.number),
        status: order.status,
        supplierId: order.supplierId,
        companyId: order.companyId,
        warehouseId: order.warehouseId,
      },
    },
    nowMs,
  );

/** The items as the service keeps them: exact, each product of the tenant and in a quantity its unit takes (400 naming the item otherwise; 404 for a product that is not the tenant's). */
async function itemsOf(
  tenantId: string,
  items: NonNullable<UpdatePurchaseOrderBody['items']>,
  received?: ReadonlyMap<string, bigint>,
): Promise<PurchaseOrderItem[]> {
  const products = await getMany(items.map((item) => keys.product(tenantId, item.productId)));
  return items.map((item, index) => {
    const found = products[index];
    if (!found) throw new NotFound(`No such product (items[${index}].productId)`);
    const quantity = parseScaled(item.quantity, QUANTITY_PLACES);
    const unitCost = parseScaled(item.unitCost, UNIT_COST_PLACES);
    if (quantity === undefined) throw ValidationError.of(`items.${index}.quantity`, `must have at most ${QUANTITY_PLACES} decimal places`);
    if (unitCost === undefined) throw ValidationError.of(`items.${index}.unitCost`, `must have at most ${UNIT_COST_PLACES} decimal places`);
    const product = toProduct(found);
    if (!quantityFitsUnit(quantity, product.unit))
      throw ValidationError.of(`items.${index}.quantity`, `must be a whole number: the product is counted in ${product.unit}, which takes no fractions`);
    return { productId: item.productId, quantity, unitCost, received: received?.get(item.productId) ?? 0n };
  });
}

/** A new DRAFT order, numbered by its company: 201; 404 for a supplier, company, warehouse or product not the tenant's. */
export async function createPurchaseOrder(
  principal: Pick<Caller, 'tenantId'>,
  body: CreatePurchaseOrderBody,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<PurchaseOrderView> {
  const items = await itemsOf(principal.tenantId, body.items);
  const id = randomUUID();
  const now = new Date(nowMs).toISOString();
  const order = await insertOrder(
    principal.tenantId,
    (number) => ({
      id,
      number,
      companyId: body.companyId,
      supplierId: body.supplierId,
      warehouseId: body.warehouseId,
      status: 'DRAFT',
      expectedAt: body.expectedAt ?? null,
      notes: body.notes ?? null,
      items,
      createdAt: now,
      updatedAt: now,
      sentAt: null,
      cancelledAt: null,
      version: 1,
    }),
    (created) => audited(principal, 'purchase_order.created', created, nowMs),
    idempotency && ((created) => ({ write: idempotency, view: purchaseOrderViewOf(created) })),
  );
  return purchaseOrderViewOf(order);
}

export async function getPurchaseOrder(principal: Pick<Caller, 'tenantId'>, orderId: string): Promise<PurchaseOrderView> {
  const order = await findOrder(principal.tenantId, orderId);
  if (!order) throw new NotFound('No such purchase order');
  return purchaseOrderViewOf(order);
}

/**
 * Change an order: its items only in DRAFT (409 after), its expected date and notes until it is
 * received or cancelled; with an If-Match, only at the version it names (412).
 */
export async function updatePurchaseOrder(
  principal: Pick<Caller, 'tenantId'>,
  orderId: string,
  body: UpdatePurchaseOrderBody,
  ifMatch: string | undefined,
  nowMs: number,
): Promise<PurchaseOrderView> {
  const expected = matchedVersions(ifMatch, 'purchase order');
  const items = body.items && (await itemsOf(principal.tenantId, body.items));
  const order = await modifyOrder(
    principal.tenantId,
    orderId,
    (current) => {
      requireMatch(expected, current.version, 'purchase order');
      if (current.status === 'RECEIVED' || current.status === 'CANCELLED') throw new Conflict(`The order is ${current.status}: it no longer changes`);
      if (items && current.status !== 'DRAFT') throw new Conflict(`The order is ${current.status}: its items change only while it is a DRAFT`);
      return {
        ...current,
        ...(body.expectedAt === undefined ? {} : { expectedAt: body.expectedAt }),
        ...(body.notes === undefined ? {} : { notes: body.notes }),
        ...(items ? { items } : {}),
        updatedAt: new Date(nowMs).toISOString(),
        version: current.version + 1,
      };
    },
    (before, after) => audited(principal, 'purchase_order.updated', after, nowMs, before),
  );
  return purchaseOrderViewOf(order);
}

/** Cancel a DRAFT or SENT order (409 otherwise): what it had on order is no longer expected. */
export async function cancelPurchaseOrder(principal: Pick<Caller, 'tenantId'>, orderId: string, nowMs: number): Promise<PurchaseOrderView> {
  const order = await modifyOrder(
    principal.tenantId,
    orderId,
    (current) => {
      if (!ALLOWED.cancel.includes(current.status)) throw new Conflict(`The order is ${current.status}: only a DRAFT or SENT order can be cancelled`);
      const now = new Date(nowMs).toISOString();
      return { ...current, status: 'CANCELLED', cancelledAt: now, updatedAt: now, version: current.version + 1 };
    },
    (before, after) => audited(principal, 'purchase_order.cancelled', after, nowMs, before),
  );
  return purchaseOrderViewOf(order);
}

/**
 * A page of the tenant's orders, newest first (by creation): one Query of the list of the most
 * selective filter given (supplier, company, status), the others applied to the page read, so a
 * page may hold fewer than `limit` while `nextCursor` says more follow.
 */
export async function listPurchaseOrders(principal: Pick<Caller, 'tenantId'>, input: ListPurchaseOrdersInput): Promise<Page<PurchaseOrderView>> {
  const { first, last } = historyRange(input);
  const filters = { status: input.status, supplierId: input.supplierId, companyId: input.companyId };
  const cursorScope = { tenantId: principal.tenantId, filters: { list: 'purchase-orders', ...filters, from: input.from, to: input.to } };
  const position = await openPageCursor(input.cursor, cursorScope);
  const after = position?.sk;
  if (position && !after) throw cursorRefused();
  const { orders, nextSk } =
    first > last
      ? { orders: [] }
      : await readOrderPage(principal.tenantId, {
          list: listOf(filters),
          fromSk: new Date(first).toISOString(),
          toSk: `${new Date(last).toISOString()}#~`,
          limit: input.limit,
          ...(after ? { afterSk: after } : {}),
        });
  const shown = orders.filter(
    (order) =>
      (!input.status || order.status === input.status) &&
      (!input.supplierId || order.supplierId === input.supplierId) &&
      (!input.companyId || order.companyId === input.companyId),
  );
  return { items: shown.map(purchaseOrderViewOf), nextCursor: await sealPageCursor(nextSk === undefined ? undefined : { sk: nextSk }, cursorScope) };
}

/**
 * Send a DRAFT order to its supplier (its e-mail, or `to`): the e-mail in Portuguese with the
 * items and a CSV of them, then the order SENT, its remaining quantities on order. The e-mail
 * goes first, of the order as read; the change is conditioned on that version, so what is
 * recorded as sent is what the supplier received (409 if it changed meanwhile: send again).
 * 409 for an order that is not a DRAFT, and for a supplier without an e-mail and no `to`.
 */
export async function sendPurchaseOrder(
  principal: Pick<Caller, 'tenantId'>,
  orderId: string,
  body: SendPurchaseOrderBody,
  nowMs: number,
): Promise<PurchaseOrderView> {
  const tenantId = principal.tenantId;
  const order = await findOrder(tenantId, orderId);
  if (!order) throw new NotFound('No such purchase order');
  if (!ALLOWED.send.includes(order.status)) throw new Conflict(`The order is ${order.status}: only a DRAFT order is sent`);
  const [supplierItem, companyItem, warehouseItem, ...rest] = await getMany([
    keys.supplier(tenantId, order.supplierId),
    keys.company(tenantId, order.companyId),
    keys.warehouse(tenantId, order.warehouseId),
    ...order.items.map((item) => keys.product(tenantId, item.productId)),
    ...order.items.map((item) => keys.supplierProduct(tenantId, order.supplierId, item.productId)),
  ]);
  const to = body.to ?? (typeof supplierItem?.email === 'string' ? supplierItem.email : undefined);
  if (!to) throw new Conflict("The supplier has no e-mail: give `to`, or set the supplier's e-mail");
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const products = new Map(
    order.items.map((item, index) => {
      const product = rest[index];
      const link = rest[order.items.length + index];
      return [
        item.productId,
        {
          sku: text(product?.sku),
          name: text(product?.name),
          unit: text(product?.unit),
          supplierCode: typeof link?.supplierCode === 'string' ? link.supplierCode : null,
        },
      ] as const;
    }),
  );
  const mail = purchaseOrderMail(order, to, {
    company: { name: text(companyItem?.name), document: formatDocument(text(companyItem?.document)) },
    supplier: { name: text(supplierItem?.name) },
    warehouseName: text(warehouseItem?.name),
    products,
  });
  await (await attachmentMailer()).send(mail);
  const sent = await modifyOrder(
    tenantId,
    orderId,
    (current) => {
      if (current.version !== order.version)
        throw new Conflict('The order changed while it was being sent: the supplier received the version before; send it again');
      const now = new Date(nowMs).toISOString();
      return { ...current, status: 'SENT', sentAt: now, updatedAt: now, version: current.version + 1 };
    },
    (before, after) => audited(principal, 'purchase_order.sent', after, nowMs, before),
  );
  return purchaseOrderViewOf(sent);
}
