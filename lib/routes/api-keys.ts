/** The routes of API keys (functions/api-keys/). */
import type { Route } from './types';
import { API_KEY_CHANGES } from './limits';

export const createApiKey = {
  method: 'POST',
  path: '/api-keys',
  handler: 'functions/api-keys/create-api-key.ts',
  auth: 'protected',
  admin: 'tenant',
  // GetItem: the company a key is limited to; Query: the administrators to tell.
  table: { actions: ['GetItem', 'Query', 'PutItem'] },
  audits: ['api_key.created'],
  uses: ['mail'],
  rateLimits: [API_KEY_CHANGES],
  apiKey: false,
  summary: 'Create an API key for a system that feeds the back-office; its text is shown once (tenant administrators)',
} as const satisfies Route;

export const listApiKeys = {
  method: 'GET',
  path: '/api-keys',
  handler: 'functions/api-keys/list-api-keys.ts',
  auth: 'protected',
  admin: 'tenant',
  // The keys (Query), then the address of each one's last use, kept apart (BatchGet).
  table: { actions: ['BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: false,
  summary: "The tenant's API keys, newest first, never their secrets (tenant administrators)",
} as const satisfies Route;

export const rollApiKey = {
  method: 'POST',
  path: '/api-keys/{id}/roll',
  handler: 'functions/api-keys/roll-api-key.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'] },
  audits: ['api_key.rolled'],
  uses: ['mail'],
  rateLimits: [API_KEY_CHANGES],
  apiKey: false,
  summary: 'Give an API key a new secret; the old one works for `expiresInHours` more (tenant administrators)',
} as const satisfies Route;

export const deleteApiKey = {
  method: 'DELETE',
  path: '/api-keys/{id}',
  handler: 'functions/api-keys/delete-api-key.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['PutItem', 'DeleteItem'] },
  audits: ['api_key.revoked'],
  rateLimits: [API_KEY_CHANGES],
  apiKey: false,
  summary: 'Revoke an API key: the next request with it gets 401 (tenant administrators)',
} as const satisfies Route;
