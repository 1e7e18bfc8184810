/** The routes of product categories (functions/categories/). */
import type { Route } from './types';

export const createCategory = {
  method: 'POST',
  path: '/inventory/categories',
  handler: 'functions/categories/create-category.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['category.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Create a product category (name unique in the tenant)',
} as const satisfies Route;

export const listCategories = {
  method: 'GET',
  path: '/inventory/categories',
  handler: 'functions/categories/list-categories.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'inventory', access: 'read' },
  summary: "The tenant's product categories, by name",
} as const satisfies Route;

export const getCategory = {
  method: 'GET',
  path: '/inventory/categories/{id}',
  handler: 'functions/categories/get-category.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  apiKey: { resource: 'inventory', access: 'read' },
  summary: 'One product category by id',
} as const satisfies Route;

export const updateCategory = {
  method: 'PATCH',
  path: '/inventory/categories/{id}',
  handler: 'functions/categories/update-category.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['category.updated'],
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Rename a product category (If-Match: its ETag)',
} as const satisfies Route;

export const deleteCategory = {
  method: 'DELETE',
  path: '/inventory/categories/{id}',
  handler: 'functions/categories/delete-category.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'DeleteItem'] },
  audits: ['category.deleted'],
  apiKey: { resource: 'inventory', access: 'write' },
  summary: 'Delete a product category no product is in',
} as const satisfies Route;
