import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal';
import { auditRecord, changesOf } from '../audit/record';
import { countInvitationOf, newInvitation, sendInvitationMail } from '../auth/invitations';
import { deleteInvitationIfUnchanged } from '../auth/invitations-repository';
import { findTenantIdByName, getTenant, insertTenant, listTenantPage, setTenantAdminEmail, takeBackTenant, updateTenantProfile } from './repository';
import { logger } from '../log';
import { openPageCursor, sealPageCursor, type Page, type PageRequest } from '../pages';
import { formatDocument } from '../domain/documents';
import { Conflict, Forbidden, NotFound, ServiceUnavailable } from '../errors';
import { cursorRefused } from '../domain/cursor';
import type { Tenant, TenantProfile } from './model';
import { RESERVED_TENANT_NAMES, type CreateTenantInput, type TenantCreatedView, type TenantView, type UpdateTenantInput } from './schemas';

/** What PATCH /tenants/{id} may change, and so what its audit entry compares. */
const PROFILE_FIELDS = [
  'brandName',
  'document',
  'address',
  'phone',
  'logoUrl',
  'mfaPolicy',
  'stockLowThresholdDays',
] as const satisfies readonly (keyof TenantProfile)[];

/** The tenants list's shape: document formatted with punctuation. */
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
  stockLowThresholdDays: tenant.stockLowThresholdDays ?? null,
  // Absent on an active tenant: what every client has read so far stays as it was.
  ...(tenant.status === 'ACTIVE' ? {} : { status: tenant.status }),
  ...(tenant.status !== 'ACTIVE' && tenant.deletionDueAt ? { deletionDueAt: tenant.deletionDueAt } : {}),
});

/**
 * Sign-up: a new active tenant; 409 when the name is taken or reserved. With `adminEmail`,
 * the invitation of its base account (its administrator) is stored in the same transaction
 * and mailed to that address: the account is opened through the link (POST /auth/register
 * with its token), so nobody can claim an address they cannot read. The address counts
 * toward its daily invitations (429 past them). When the e-mail cannot be sent the tenant is
 * taken back and the answer is 503, so that the same sign-up can be tried again. Without
 * `adminEmail` the tenant has no account until a platform administrator sets one
 * (`updateTenant`).
 */
export async function createTenant(input: CreateTenantInput, nowMs: number): Promise<TenantCreatedView> {
  if (RESERVED_TENANT_NAMES.includes(input.name)) throw new Conflict(`The tenant name '${input.name}' is reserved`);
  // A taken name is refused before the address's invitations are counted (the insert checks it again).
  if (await findTenantIdByName(input.name)) throw nameTaken(input.name);
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
    stockLowThresholdDays: null,
    baseAccountUserId: null,
    createdAt: now,
    updatedAt: now,
  };
  const view: TenantCreatedView = { id: tenant.id, name: tenant.name, brandName: tenant.brandName, plan: tenant.plan };
  // The platform's trail: nobody is signed in on sign-up, and the tenant has no user yet.
  const audit = auditRecord({ scope: 'platform', action: 'tenant.created', resource: { type: 'tenant', id: tenant.id } }, nowMs);
  if (!tenant.adminEmail) {
    await insertTenant(tenant, audit);
    return view;
  }
  await countInvitationOf(tenant.adminEmail, nowMs);
  const { invitation, token } = newInvitation({ tenantId: tenant.id, email: tenant.adminEmail, invitedBy: null, baseAccount: true }, nowMs);
  await insertTenant(tenant, audit, invitation);
  try {
    await sendInvitationMail(invitation, token);
  } catch (error) {
    logger.error("the administrator's invitation could not be mailed; the tenant is taken back", { error: error as Error });
    await takeBackTenant(tenant, invitation, audit).catch((rollback: unknown) =>
      logger.error('could not take back a tenant whose invitation failed', { error: rollback as Error }),
    );
    throw new ServiceUnavailable(5, 'The invitation e-mail could not be sent; try the sign-up again');
  }
  return view;
}

const nameTaken = (name: string) => new Conflict(`A tenant named '${name}' already exists`);

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
 * One tenant's profile and settings: a platform administrator, or an administrator of that
 * tenant (what the console's settings show before they are changed). Another tenant is a 404
 * (its existence is not disclosed); a member of the tenant gets 403.
 */
export async function readTenant(principal: Principal, tenantId: string): Promise<TenantView> {
  if (!principal.platformAdmin) {
    if (principal.tenantId !== tenantId) throw new NotFound('No such tenant');
    if (principal.role !== 'ADMIN') throw new Forbidden('Only an administrator of the tenant may read its settings');
  }
  const tenant = await getTenant(tenantId);
  if (!tenant) throw new NotFound('No such tenant');
  return toTenantView(tenant);
}

/**
 * Update a tenant's profile: a platform administrator, or an administrator of that tenant.
 * Another tenant is a 404 (its existence is not disclosed); a member of the tenant gets 403.
 *
 * `adminEmail` (platform administrators only: 403 for anyone else) invites the tenant's
 * administrator: for a tenant signed up without one, or whose invitation was lost. It is set
 * with the base account's invitation (a new token, replacing any earlier one of that address)
 * in the change's transaction, and mailed; 409 once the tenant has its base account. When
 * the e-mail cannot be sent the invitation is taken back and the answer is 503 (the address
 * stays set: the same request again sends it).
 */
export async function updateTenant(principal: Principal, tenantId: string, changes: UpdateTenantInput, nowMs: number): Promise<TenantView> {
  const { adminEmail, ...profile } = changes;
  if (!principal.platformAdmin) {
    if (principal.tenantId !== tenantId) throw new NotFound('No such tenant');
    if (principal.role !== 'ADMIN') throw new Forbidden('Only an administrator of the tenant may change it');
    if (adminEmail !== undefined) throw new Forbidden("Only a platform administrator may invite a tenant's administrator");
  }
  const now = new Date(nowMs).toISOString();
  const audit = (before: Tenant, after: Tenant) =>
    auditRecord(
      { scope: { tenantId }, action: 'tenant.updated', resource: { type: 'tenant', id: tenantId }, changes: changesOf(before, after, AUDITED_FIELDS) },
      nowMs,
    );
  if (adminEmail === undefined) return toTenantView(await updateTenantProfile(tenantId, profile, now, audit));

  await countInvitationOf(adminEmail, nowMs);
  const { invitation, token } = newInvitation({ tenantId, email: adminEmail, invitedBy: principal.userId, baseAccount: true }, nowMs);
  const updated = await setTenantAdminEmail(tenantId, profile, invitation, now, audit);
  try {
    await sendInvitationMail(invitation, token);
  } catch (error) {
    logger.error("the administrator's invitation could not be mailed; it is taken back", { error: error as Error });
    await deleteInvitationIfUnchanged(invitation).catch((rollback: unknown) =>
      logger.error('could not take back an invitation whose e-mail failed', { error: rollback as Error }),
    );
    throw new ServiceUnavailable(5, 'The invitation e-mail could not be sent; try again');
  }
  return toTenantView(updated);
}

/** What a tenant's change records: the profile, and the administrative e-mail a platform administrator sets. */
const AUDITED_FIELDS = [...PROFILE_FIELDS, 'adminEmail'] as const satisfies readonly (keyof Tenant)[];
