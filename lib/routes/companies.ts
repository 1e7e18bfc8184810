/** The routes of a tenant's companies (functions/companies/). */
import type { Route } from './types';

export const createCompany = {
  method: 'POST',
  path: '/companies',
  handler: 'functions/companies/create-company.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['company.created'],
  idempotent: { status: 201 },
  apiKey: { resource: 'companies', access: 'write' },
  summary: "Create a company in the caller's tenant",
} as const satisfies Route;

export const listCompanies = {
  method: 'GET',
  path: '/companies',
  handler: 'functions/companies/list-companies.ts',
  auth: 'protected',
  // GetItem: the one company of an API key limited to it.
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  uses: ['cursor-key'],
  apiKey: { resource: 'companies', access: 'read' },
  summary: "The caller's tenant's companies, oldest first",
} as const satisfies Route;

export const updateCompany = {
  method: 'PATCH',
  path: '/companies/{id}',
  handler: 'functions/companies/update-company.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'] },
  audits: ['company.updated'],
  apiKey: { resource: 'companies', access: 'write' },
  summary: 'Update a company (name, email, address, settings, taxRegime, costMethod)',
} as const satisfies Route;

export const updateCompanyStatus = {
  method: 'PATCH',
  path: '/companies/{id}/status',
  handler: 'functions/companies/update-company-status.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['gsi1'] },
  audits: ['company.status_changed'],
  apiKey: { resource: 'companies', access: 'write' },
  summary: 'Move a company through its status lifecycle (administrators)',
} as const satisfies Route;
