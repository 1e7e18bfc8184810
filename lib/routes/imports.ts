/** The routes of CSV imports (functions/imports/). */
import type { Route } from './types';
import { IMPORTS_STARTED } from './limits';

export const createImport = {
  method: 'POST',
  path: '/imports',
  handler: 'functions/imports/create-import.ts',
  auth: 'protected',
  admin: 'tenant',
  // The job and its entry in one transaction; the upload link is signed, not stored.
  table: { actions: ['PutItem'] },
  audits: ['import.created'],
  uses: ['import-uploads'],
  rateLimits: [IMPORTS_STARTED],
  apiKey: false,
  summary: 'Start a CSV import of suppliers or products (a dry run or a real one), and get where to upload its file (tenant administrators)',
} as const satisfies Route;

export const getImport = {
  method: 'GET',
  path: '/imports/{id}',
  handler: 'functions/imports/get-import.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem'] },
  apiKey: false,
  summary: "An import's progress and report: rows done, created, already there, refused with their lines (tenant administrators)",
} as const satisfies Route;
