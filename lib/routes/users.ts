/** The routes of a tenant's users: listing, roles, second-factor reset, anonymization (functions/users/). */
import type { Route } from './types';

export const listUsers = {
  method: 'GET',
  path: '/users',
  handler: 'functions/users/list-users.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: false,
  summary: "The tenant's users, by name (tenant administrators)",
} as const satisfies Route;

export const updateUser = {
  method: 'PATCH',
  path: '/users/{id}',
  handler: 'functions/users/update-user.ts',
  auth: 'protected',
  admin: 'tenant',
  // A demotion fails the user's pending jobs that needed an administrator (markers by Query, jobs by Update, markers by Delete).
  table: { actions: ['GetItem', 'Query', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['user.role_changed'],
  apiKey: false,
  summary: "Change a user's role (tenant administrators)",
} as const satisfies Route;

export const deleteUser = {
  method: 'DELETE',
  path: '/users/{id}',
  handler: 'functions/users/delete-user.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'write' },
  audits: ['user.removed'],
  apiKey: false,
  summary: 'Remove a user from the tenant (tenant administrators)',
} as const satisfies Route;

export const resetUserMfa = {
  method: 'DELETE',
  path: '/users/{id}/mfa',
  handler: 'functions/users/reset-user-mfa.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], credentials: 'write' },
  audits: ['user.mfa_reset'],
  uses: ['mail'],
  apiKey: false,
  summary: "Reset a user's second factor (tenant administrators for members; platform administrators for tenant administrators)",
} as const satisfies Route;

export const anonymizeUser = {
  method: 'POST',
  path: '/users/{id}/anonymize',
  handler: 'functions/users/anonymize-user.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['user.anonymized'],
  rateLimits: [{ per: 'user', limit: 30, windowSeconds: 3600 }],
  apiKey: false,
  summary: "Replace a removed user's name and e-mail in the tenant's audit trail with a placeholder (tenant administrators)",
} as const satisfies Route;
