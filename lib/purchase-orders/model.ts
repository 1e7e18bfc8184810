import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * A purchase order (pedido de compra): what a company of the tenant buys from a supplier, for
 * one of its warehouses, numbered per company with no gaps (`PC-000123`). Its life:
 * DRAFT → SENT → PARTIALLY_RECEIVED → RECEIVED, and DRAFT or SENT → CANCELLED. Items, expected
 * date and notes are editable in DRAFT; after that only the expected date and the notes. What
 * an open order (SENT or PARTIALLY_RECEIVED) still expects is "on order".
 */

export const PURCHASE_ORDER_STATUSES = ['DRAFT', 'SENT', 'PARTIALLY_RECEIVED', 'RECEIVED', 'CANCELLED'] as const;
export type PurchaseOrderStatus = (typeof PURCHASE_ORDER_STATUSES)[number];

/** The statuses whose remaining quantities are on order. */
export const OPEN_STATUSES: readonly PurchaseOrderStatus[] = ['SENT', 'PARTIALLY_RECEIVED'];

/** At most this many items in one order: sending or cancelling it moves each item's on-order in one transaction. */
export const MAX_ORDER_ITEMS = 80;
export const MAX_ORDER_NOTES = 2000;

export const purchaseOrderItemSchema = /* @__PURE__ */ schema(() =>
  z.object({
    productId: z.uuid(),
    /** Units of the product ordered, thousandths. */
    quantity: z.bigint(),
    /** The price of one unit, 10^-4. */
    unitCost: z.bigint(),
    /** Units received so far, thousandths. */
    received: z.bigint(),
  }),
);
export type PurchaseOrderItem = z.infer<typeof purchaseOrderItemSchema>;

export const purchaseOrderSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    /** The company's sequence number, from 1, without gaps. */
    number: z.number().check(z.int()),
    companyId: z.uuid(),
    supplierId: z.uuid(),
    warehouseId: z.uuid(),
    status: z.enum(PURCHASE_ORDER_STATUSES),
    /** The day the goods are expected, `YYYY-MM-DD`. */
    expectedAt: z.nullable(z.string()),
    notes: z.nullable(z.string()),
    items: z.array(purchaseOrderItemSchema),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    sentAt: z.nullable(z.iso.datetime()),
    cancelledAt: z.nullable(z.iso.datetime()),
    /** One at creation, one more per change: the order's ETag. */
    version: z.number().check(z.int()),
  }),
);
export type PurchaseOrder = z.infer<typeof purchaseOrderSchema>;

/** How an order is named: `PC-` and its number on six digits (more when it grows past them). */
export const orderCode = (number: number): string => `PC-${String(number).padStart(6, '0')}`;

/** An item's value, exact: thousandths × 10^-4 = 10^-7 of the currency. */
export const itemValue = (item: Pick<PurchaseOrderItem, 'quantity' | 'unitCost'>): bigint => item.quantity * item.unitCost;

/** The order's total, exact (10^-7). */
export const orderTotal = (order: Pick<PurchaseOrder, 'items'>): bigint => order.items.reduce((sum, item) => sum + itemValue(item), 0n);

/** What an item still expects: ordered less received, never below 0 (an over-receipt expects nothing). */
export const remainingOf = (item: Pick<PurchaseOrderItem, 'quantity' | 'received'>): bigint =>
  item.received >= item.quantity ? 0n : item.quantity - item.received;

/** The transitions a caller may ask for, from each status. */
export const ALLOWED: Record<'send' | 'cancel', readonly PurchaseOrderStatus[]> = {
  send: ['DRAFT'],
  cancel: ['DRAFT', 'SENT'],
};
