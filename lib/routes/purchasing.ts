/** The routes of reorder settings (in the inventory's area) and purchase suggestions (functions/purchasing/). */
import type { Route } from './types';

export const setReorderSettings = {
  method: 'PUT',
  path: '/inventory/products/{id}/reorder',
  handler: 'functions/inventory/set-reorder-settings.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'ConditionCheckItem', 'PutItem'] },
  audits: ['product.reorder_set'],
  apiKey: { resource: 'inventory', access: 'write' },
  summary: "Set a product's reorder point, target days and safety days, for a warehouse or all",
} as const satisfies Route;

export const listSuggestions = {
  method: 'GET',
  path: '/purchasing/suggestions',
  handler: 'functions/purchasing/list-suggestions.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'purchasing', access: 'read' },
  summary: 'What to buy, from whom: the products short of cover or below their reorder point',
} as const satisfies Route;
