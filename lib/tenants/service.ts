import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { auditRecord, changesOf } from '../audit/record';
import { insertTenant, listTenantPage, updateTenantProfile } from '../db/repositories/tenants';
import { openPageCursor, sealPageCursor, type Page, type PageRequest } from '../pages';
import { formatDocument } from '../domain/documents';
import { Conflict, Forbidden, NotFound } from '../errors';
import { cursorRefused } from '../domain/cursor';
import type { IdempotentWrite } from '../idempotency/model';
import type { Tenant, TenantProfile } from './model';
import { RESERVED_TENANT_NAMES, type CreateTenantInput, type TenantCreatedView, type TenantView } from './schemas';

/** What PATCH /tenants/{id} may change, and so what its audit entry compares. */
const PROFILE_FIELDS = ['brandName', 'document', 'address', 'phone', 'logoUrl', 'mfaPolicy'] as const satisfies readonly (keyof TenantProfile)[];

/** The list shape of interface.md: document formatted with punctuation. */
export const toTenantView = (tenant: Tenant): TenantView => ({
  id: tenant.id,
  name: tenant.name,
  brandName: tenant.brandName,
  document: tenant.document === null ? null : formatDocument(tenant.document),
  address: tenant.address,
  phone: tenant.phone,
  logoUrl: tenant.logoUrl,
  plan: tenant.plan,
  mfaPolicy: tenant.mfaPolicy,
});

/** Sign-up: a new active tenant; 409 when the name is taken or reserved. */
export async function createTenant(input: CreateTenantInput, nowMs: number, idempotency?: IdempotentWrite): Promise<TenantCreatedView> {
  if (RESERVED_TENANT_NAMES.includes(input.name)) throw new Conflict(`The tenant name '${input.name}' is reserved`);
  const now = new Date(nowMs).toISOString();
  const tenant: Tenant = {
    id: randomUUID(),
    name: input.name,
    brandName: input.brandName ?? null,
    document: input.document ?? null,
    address: null,
    phone: null,
    logoUrl: null,
    plan: input.plan,
    adminEmail: input.adminEmail ?? null,
    status: 'ACTIVE',
    mfaPolicy: 'OFF',
    baseAccountUserId: null,
    createdAt: now,
    updatedAt: now,
  };
  const view: TenantCreatedView = { id: tenant.id, name: tenant.name, brandName: tenant.brandName, plan: tenant.plan };
  // The platform's trail: nobody is signed in on sign-up, and the tenant has no user yet.
  const audit = auditRecord({ scope: 'platform', action: 'tenant.created', resource: { type: 'tenant', id: tenant.id } }, nowMs);
  await insertTenant(tenant, audit, idempotency && { write: idempotency, view });
  return view;
}

/** Every tenant, by name: platform administrators only. */
export async function listTenants(principal: Principal, page: PageRequest): Promise<Page<TenantView>> {
  if (!principal.platformAdmin) throw new Forbidden('The administrator profile is required');
  const scope = { tenantId: principal.tenantId, filters: { list: 'tenants' } };
  const after = await openPageCursor(page.cursor, scope);
  if (after && (after.name === undefined || after.id === undefined)) throw cursorRefused();
  const { tenants, last } = await listTenantPage({ limit: page.limit, ...(after ? { after: { name: String(after.name), id: String(after.id) } } : {}) });
  return { items: tenants.map(toTenantView), nextCursor: await sealPageCursor(last ? { ...last } : undefined, scope) };
}

/**
 * Update a tenant's profile: a platform administrator, or an administrator of that tenant.
 * Another tenant is a 404 (its existence is not disclosed); a member of the tenant gets 403.
 */
export async function updateTenant(principal: Principal, tenantId: string, changes: Partial<TenantProfile>, nowMs: number): Promise<TenantView> {
  if (!principal.platformAdmin) {
    if (principal.tenantId !== tenantId) throw new NotFound('No such tenant');
    if (principal.role !== 'ADMIN') throw new Forbidden('Only an administrator of the tenant may change it');
  }
  const updated = await updateTenantProfile(tenantId, changes, new Date(nowMs).toISOString(), (before, after) =>
    auditRecord({ scope: { tenantId }, action: 'tenant.updated', resource: { type: 'tenant', id: tenantId }, changes: changesOf(before, after, PROFILE_FIELDS) }, nowMs),
  );
  return toTenantView(updated);
}
