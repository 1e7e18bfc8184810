/** The routes of stock counts (functions/counts/). */
import type { Route } from './types';

export const createCount = {
  method: 'POST',
  path: '/inventory/counts',
  handler: 'functions/counts/create-count.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['count.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Open a stock count of a warehouse, or of some of its products',
} as const satisfies Route;

export const listCounts = {
  method: 'GET',
  path: '/inventory/counts',
  handler: 'functions/counts/list-counts.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'Stock counts, newest first',
} as const satisfies Route;

export const getCount = {
  method: 'GET',
  path: '/inventory/counts/{id}',
  handler: 'functions/counts/get-count.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'A stock count with its totals and a page of its lines',
} as const satisfies Route;

export const listUncounted = {
  method: 'GET',
  path: '/inventory/counts/{id}/uncounted',
  handler: 'functions/counts/list-uncounted.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'], indexes: ['gsi1'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'The products in scope of a stock count that nobody counted yet',
} as const satisfies Route;

export const setCountLine = {
  method: 'PUT',
  path: '/inventory/counts/{id}/lines/{productId}',
  handler: 'functions/counts/set-count-line.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['count.line_counted'],
  apiKey: { resource: 'inventory', access: 'write' },
  summary: "Set a product's counted quantity in an open stock count",
} as const satisfies Route;

export const scanCount = {
  method: 'POST',
  path: '/inventory/counts/{id}/scans',
  handler: 'functions/counts/scan-count.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['count.line_counted'],
  idempotent: { status: 200 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Add scanned units (by GTIN or SKU) to a line of an open stock count',
} as const satisfies Route;

export const closeCount = {
  method: 'POST',
  path: '/inventory/counts/{id}/close',
  handler: 'functions/counts/close-count.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['gsi1'] },
  audits: ['count.closed'],
  uses: ['tenant-job-queue'],
  timeoutSeconds: 25,
  apiKey: { resource: 'inventory', access: 'write' },
  summary: "Close a stock count: each line's difference applied as an adjustment, once",
} as const satisfies Route;

export const cancelCount = {
  method: 'POST',
  path: '/inventory/counts/{id}/cancel',
  handler: 'functions/counts/cancel-count.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['count.cancelled'],
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Cancel an open stock count (nothing is adjusted)',
} as const satisfies Route;
