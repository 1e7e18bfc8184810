/** The routes of a tenant's suppliers (functions/suppliers/). */
import type { Route } from './types';

export const createSupplier = {
  method: 'POST',
  path: '/suppliers',
  handler: 'functions/suppliers/create-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['supplier.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: "Create a supplier in the caller's tenant",
} as const satisfies Route;

export const listSuppliers = {
  method: 'GET',
  path: '/suppliers',
  handler: 'functions/suppliers/list-suppliers.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  searches: 'suppliers',
  cpu: 'search',
  // A search on a cold function loads the tenant's suppliers: each user's searches are limited.
  rateLimits: [{ per: 'user', limit: 30, windowSeconds: 60, counts: 'searches' }],
  apiKey: { resource: 'suppliers', access: 'read' },
  summary: 'A page of suppliers by name, optionally searched',
} as const satisfies Route;

export const getSupplier = {
  method: 'GET',
  path: '/suppliers/{id}',
  handler: 'functions/suppliers/get-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  apiKey: { resource: 'suppliers', access: 'read' },
  summary: 'One supplier by id',
} as const satisfies Route;

export const updateSupplier = {
  method: 'PATCH',
  path: '/suppliers/{id}',
  handler: 'functions/suppliers/update-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['supplier.updated'],
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: 'Update a supplier',
} as const satisfies Route;

export const deleteSupplier = {
  method: 'DELETE',
  path: '/suppliers/{id}',
  handler: 'functions/suppliers/delete-supplier.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['supplier.deleted'],
  apiKey: { resource: 'suppliers', access: 'write' },
  summary: 'Delete a supplier for good',
} as const satisfies Route;
