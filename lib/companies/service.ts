import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { Caller } from '../auth/principal';
import type { IdempotentWrite } from '../idempotency/model';
import type { AuditAction } from '../audit/model';
import { auditRecord, changesOf } from '../audit/record';
import {
  findCompanyTenant,
  getCompany,
  insertCompany,
  listCompanyPage,
  transitionCompanyStatus,
  updateCompanyProfile,
  type Company,
  type CompanyAudit,
  type CompanyChanges,
} from './repository';
import { Conflict, Forbidden, NotFound } from '../errors';
import { companyStatusWrites } from '../inventory/repository';
import { keyOrderedPage, type Page, type PageRequest } from '../pages';
import type { CompanyStatus, createCompanyBody } from './schemas';

/** The fields a profile change records in its audit entry (settings as JSON text: see `auditedFields`). */
const PROFILE_FIELDS = ['name', 'email', 'address', 'settings', 'taxRegime', 'costMethod'] as const;

/**
 * What an entry records of a company: settings as its JSON text, as the company item keeps it,
 * since a free-form object may hold what a DynamoDB map cannot (nesting past 32 levels inside
 * the entry, numbers beyond its range) and the entry must never fail the change it records.
 */
const auditedFields = (company: Company) => ({ ...company, settings: JSON.stringify(company.settings) });

/** The audit record of a change to a company, in its own tenant's trail (a platform administrator may change another tenant's). */
const companyChange =
  (action: AuditAction, fields: readonly (keyof Company)[], nowMs: number): CompanyAudit =>
  (before, after) =>
    auditRecord(
      {
        scope: { tenantId: before.tenantId },
        action,
        resource: { type: 'company', id: before.id },
        changes: changesOf(auditedFields(before), auditedFields(after), fields),
        // A receiver routes on the company's status (its event says which one it moved to).
        eventFields: { status: after.status },
      },
      nowMs,
    );

/** A new company: ACTIVE, SIMPLES_NACIONAL, WEIGHTED_AVERAGE, settings {}; document unique service-wide. */
export async function createCompany(
  principal: Caller,
  input: z.output<typeof createCompanyBody>,
  nowMs: number,
  idempotency?: IdempotentWrite,
): Promise<Company> {
  const now = new Date(nowMs).toISOString();
  const company: Company = {
    id: randomUUID(),
    tenantId: principal.tenantId,
    name: input.name,
    document: input.document,
    status: 'ACTIVE',
    email: input.email ?? null,
    address: input.address ?? null,
    settings: input.settings ?? {},
    taxRegime: 'SIMPLES_NACIONAL',
    costMethod: 'WEIGHTED_AVERAGE',
    createdAt: now,
    updatedAt: now,
  };
  const audit = auditRecord({ scope: { tenantId: company.tenantId }, action: 'company.created', resource: { type: 'company', id: company.id } }, nowMs);
  await insertCompany(company, audit, idempotency && { write: idempotency, view: company });
  return company;
}

/** A page of the caller's tenant's companies, oldest first; an API key limited to one company sees that one alone. */
export async function listCompanies(principal: Caller, page: PageRequest): Promise<Page<Company>> {
  if (principal.kind === 'api-key' && principal.companyId !== null) {
    const company = await getCompany(principal.tenantId, principal.companyId);
    return { items: company && page.cursor === undefined ? [company] : [], nextCursor: null };
  }
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'companies' } }, page, (at) => listCompanyPage(principal.tenantId, at));
}

export function updateCompany(principal: Caller, companyId: string, changes: CompanyChanges, nowMs: number): Promise<Company> {
  return updateCompanyProfile(principal.tenantId, companyId, changes, new Date(nowMs).toISOString(), companyChange('company.updated', PROFILE_FIELDS, nowMs));
}

/**
 * The status lifecycle (docs/api.md, "Resources in brief"). `platform` marks the transitions only a
 * platform administrator may make.
 */
const TRANSITIONS: Record<CompanyStatus, Partial<Record<CompanyStatus, 'tenant-admin' | 'platform'>>> = {
  ACTIVE: { DISABLED: 'tenant-admin', SUSPENDED: 'tenant-admin', BLOCKED: 'tenant-admin' },
  DISABLED: { ACTIVE: 'tenant-admin' },
  SUSPENDED: { ACTIVE: 'tenant-admin' },
  BLOCKED: { ACTIVE: 'platform' },
};

/**
 * Change a company's status: tenant administrators for their own companies, platform
 * administrators for any. A transition outside the table, or one that needs the platform
 * administrator, is a 409 / 403.
 */
export async function changeCompanyStatus(principal: Caller, companyId: string, to: CompanyStatus, nowMs: number): Promise<Company> {
  if (!principal.platformAdmin && principal.role !== 'ADMIN') throw new Forbidden('Only an administrator may change a company status');

  let company = await getCompany(principal.tenantId, companyId);
  if (!company && principal.platformAdmin) {
    const tenantId = await findCompanyTenant(companyId);
    company = tenantId ? await getCompany(tenantId, companyId) : undefined;
  }
  if (!company) throw new NotFound('No such company');

  const rule = TRANSITIONS[company.status][to];
  if (!rule) throw new Conflict(`A company cannot go from ${company.status} to ${to}`);
  if (rule === 'platform' && !principal.platformAdmin) throw new Conflict(`Only a platform administrator may move a company from ${company.status} to ${to}`);
  return transitionCompanyStatus(
    company.tenantId,
    company.id,
    company.status,
    to,
    new Date(nowMs).toISOString(),
    companyChange('company.status_changed', ['status'], nowMs),
    // Its warehouses take the status with it: their movements are conditioned on it.
    () => companyStatusWrites(company.tenantId, company.id, to),
  );
}
