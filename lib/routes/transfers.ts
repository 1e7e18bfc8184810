/** The routes of transfers between warehouses (functions/transfers/). */
import type { Route } from './types';

export const createTransfer = {
  method: 'POST',
  path: '/inventory/transfers',
  handler: 'functions/transfers/create-transfer.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['transfer.created'],
  idempotent: { status: 201 },
  // A transfer of several products whose request fails after its units left hands their arrival to the tenant jobs' queue.
  uses: ['tenant-job-queue'],
  timeoutSeconds: 20,
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Move stock of one product, or of several all or none, from one warehouse to another',
} as const satisfies Route;

export const listTransfers = {
  method: 'GET',
  path: '/inventory/transfers',
  handler: 'functions/transfers/list-transfers.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'Transfers between warehouses, newest first',
} as const satisfies Route;
