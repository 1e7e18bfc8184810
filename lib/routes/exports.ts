/** The routes of CSV exports (functions/exports/). */
import type { Route } from './types';
import { EXPORTS_STARTED } from './limits';

export const createExport = {
  method: 'POST',
  path: '/exports',
  handler: 'functions/exports/create-export.ts',
  auth: 'protected',
  // The job and its entry in one transaction; the worker is sent its message after.
  table: { actions: ['PutItem'] },
  audits: ['export.created'],
  uses: ['export-queue'],
  rateLimits: [EXPORTS_STARTED],
  apiKey: false,
  summary: 'Start a CSV export of suppliers, products with their stock, the stock history or the audit trail of a period, for a spreadsheet',
} as const satisfies Route;

export const getExport = {
  method: 'GET',
  path: '/exports/{id}',
  handler: 'functions/exports/get-export.ts',
  auth: 'protected',
  table: { actions: ['GetItem'] },
  uses: ['export-downloads'],
  apiKey: false,
  summary: "An export's state and, once it is done, a link to download its file (valid 15 minutes)",
} as const satisfies Route;
