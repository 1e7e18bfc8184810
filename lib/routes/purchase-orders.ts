/** The routes of purchase orders (functions/purchase-orders/). */
import { PURCHASE_ORDER_SENDS } from './limits';
import type { Route } from './types';

export const createPurchaseOrder = {
  method: 'POST',
  path: '/purchase-orders',
  handler: 'functions/purchase-orders/create-purchase-order.ts',
  auth: 'protected',
  // The supplier, company and warehouse are checked to exist in the order's transaction.
  table: { actions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['purchase_order.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'purchasing', access: 'write' },
  summary: 'Create a purchase order (DRAFT), numbered per company',
} as const satisfies Route;

export const listPurchaseOrders = {
  method: 'GET',
  path: '/purchase-orders',
  handler: 'functions/purchase-orders/list-purchase-orders.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'purchasing', access: 'read' },
  summary: 'Purchase orders, newest first, by status, supplier, company and date',
} as const satisfies Route;

export const getPurchaseOrder = {
  method: 'GET',
  path: '/purchase-orders/{id}',
  handler: 'functions/purchase-orders/get-purchase-order.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem'] },
  apiKey: { resource: 'purchasing', access: 'read' },
  summary: 'One purchase order, with its ETag',
} as const satisfies Route;

export const updatePurchaseOrder = {
  method: 'PATCH',
  path: '/purchase-orders/{id}',
  handler: 'functions/purchase-orders/update-purchase-order.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['purchase_order.updated'],
  apiKey: { resource: 'purchasing', access: 'write' },
  summary: "Change a purchase order's items (DRAFT), expected date or notes (If-Match: its ETag)",
} as const satisfies Route;

export const cancelPurchaseOrder = {
  method: 'POST',
  path: '/purchase-orders/{id}/cancel',
  handler: 'functions/purchase-orders/cancel-purchase-order.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['purchase_order.cancelled'],
  apiKey: { resource: 'purchasing', access: 'write' },
  summary: 'Cancel a DRAFT or SENT purchase order',
} as const satisfies Route;

export const sendPurchaseOrder = {
  method: 'POST',
  path: '/purchase-orders/{id}/send',
  handler: 'functions/purchase-orders/send-purchase-order.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['purchase_order.sent'],
  uses: ['mail'],
  rateLimits: [PURCHASE_ORDER_SENDS],
  apiKey: { resource: 'purchasing', access: 'write' },
  summary: 'E-mail a DRAFT purchase order to its supplier (HTML and CSV) and mark it SENT',
} as const satisfies Route;
