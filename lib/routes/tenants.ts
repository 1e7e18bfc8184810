/** The routes of tenants: sign-up, the platform listing, profile, closing, reopening and exports (functions/tenants/). */
import { INVITATIONS_PER_ADDRESS } from '../rate-limit';
import type { Route } from './types';

export const createTenant = {
  method: 'POST',
  path: '/tenants',
  handler: 'functions/tenants/create-tenant.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'PutItem', 'DeleteItem'] },
  audits: ['tenant.created'],
  uses: ['mail'],
  rateLimits: [{ per: 'ip', limit: 10, windowSeconds: 3600 }, INVITATIONS_PER_ADDRESS],
  refusesIdempotencyKey: true,
  summary: 'Create a tenant (sign-up); its administrator is invited by e-mail',
} as const satisfies Route;

export const listTenants = {
  method: 'GET',
  path: '/tenants',
  handler: 'functions/tenants/list-tenants.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: [], indexes: ['gsi1'] },
  uses: ['cursor-key'],
  apiKey: false,
  summary: 'List every tenant (platform administrator)',
} as const satisfies Route;

export const getTenant = {
  method: 'GET',
  path: '/tenants/{id}',
  handler: 'functions/tenants/get-tenant.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem'] },
  apiKey: false,
  summary: "A tenant's profile and settings (its administrators, platform administrators)",
} as const satisfies Route;

export const updateTenant = {
  method: 'PATCH',
  path: '/tenants/{id}',
  handler: 'functions/tenants/update-tenant.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['tenant.updated'],
  uses: ['mail'],
  // `adminEmail` invites the tenant's administrator: an invitation of that address.
  rateLimits: [INVITATIONS_PER_ADDRESS],
  apiKey: false,
  summary: 'Update a tenant profile, or invite its administrator (platform administrators)',
} as const satisfies Route;

export const closeTenant = {
  method: 'POST',
  path: '/tenants/{id}/close',
  handler: 'functions/tenants/close-tenant.ts',
  auth: 'protected',
  admin: 'platform',
  // The status read, then its change, the deletion's schedule entry and the entry in one
  // transaction; then its pending jobs failed (their markers by Query, each job by Update, the marker by Delete).
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['tenant.closed'],
  apiKey: false,
  summary: 'Close a tenant: sign-in refused at once, its deletion scheduled after the grace period (platform administrators)',
} as const satisfies Route;

export const reopenTenant = {
  method: 'POST',
  path: '/tenants/{id}/reopen',
  handler: 'functions/tenants/reopen-tenant.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['tenant.reopened'],
  apiKey: false,
  summary: 'Undo the close of a tenant before its deletion starts (platform administrators)',
} as const satisfies Route;

export const exportTenant = {
  method: 'POST',
  path: '/tenants/{id}/export',
  handler: 'functions/tenants/export-tenant.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: ['GetItem', 'PutItem'] },
  audits: ['tenant.exported'],
  uses: ['tenant-job-queue'],
  apiKey: false,
  summary: 'Export every item of a tenant as NDJSON with a manifest and checksums, its secrets left out (platform administrators)',
} as const satisfies Route;

export const getTenantExport = {
  method: 'GET',
  path: '/tenants/{id}/exports/{exportId}',
  handler: 'functions/tenants/get-tenant-export.ts',
  auth: 'protected',
  admin: 'platform',
  table: { actions: ['GetItem'] },
  uses: ['tenant-export-downloads'],
  apiKey: false,
  summary: "A tenant export's status and, once done, its download links for 15 minutes (platform administrators)",
} as const satisfies Route;
