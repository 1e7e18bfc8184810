/** The routes of the audit trail (functions/audit/). */
import type { Route } from './types';

export const listAuditEvents = {
  method: 'GET',
  path: '/audit-events',
  handler: 'functions/audit/list-audit-events.ts',
  auth: 'protected',
  admin: 'tenant',
  // A page's entries by Query, and their origins (IP, User-Agent: items apart) by Query or one BatchGetItem.
  table: { actions: ['BatchGetItem', 'Query'], indexes: ['gsi1'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'audit', access: 'read' },
  summary: 'The audit trail, newest first, filtered by actor, action, resource and time (tenant administrators)',
} as const satisfies Route;
