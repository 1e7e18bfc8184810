/** The routes of domain events (functions/events/). */
import type { Route } from './types';

export const listEvents = {
  method: 'GET',
  path: '/events',
  handler: 'functions/events/list-events.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['Query'], indexes: ['gsi1'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'events', access: 'read' },
  summary: "The tenant's domain events of the last 30 days, oldest first, for a receiver catching up (tenant administrators)",
} as const satisfies Route;
