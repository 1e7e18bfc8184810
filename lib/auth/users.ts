import { auditRecord } from '../audit/record';
import type { Principal } from './principal';
import type { User } from './model';
import type { TenantUserView } from './schemas';
import { deleteUser, listUserPage, setUserRole } from '../db/repositories/users';
import { Forbidden } from '../errors';
import { keyOrderedPage, type Page, type PageRequest } from '../pages';

/**
 * Users of a tenant, administered by its administrators (issue 16): the list by name, a role
 * change, a removal. A role change and a removal take effect on the user's next request: the
 * authorizer reads the user on every request (a removed user is gone: 401).
 */

function requireTenantAdmin(principal: Principal): void {
  if (principal.role !== 'ADMIN') throw new Forbidden('Only a tenant administrator may manage its users');
}

const toTenantUserView = (user: User): TenantUserView => ({
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  createdAt: user.createdAt,
  lastLoginAt: user.lastLoginAt ?? null,
  status: 'ACTIVE',
});

/** A page of the tenant's users by name (case- and accent-insensitive). */
export async function listUsers(principal: Principal, page: PageRequest): Promise<Page<TenantUserView>> {
  requireTenantAdmin(principal);
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'users' } }, page, async (at) => {
    const { items, lastSk } = await listUserPage(principal.tenantId, at);
    return { items: items.map(toTenantUserView), ...(lastSk === undefined ? {} : { lastSk }) };
  });
}

/** Sets a user's role; 409 when it would leave the tenant without an administrator. */
export async function changeUserRole(principal: Principal, userId: string, role: User['role'], nowMs: number): Promise<TenantUserView> {
  requireTenantAdmin(principal);
  const record = (before: User) =>
    auditRecord({ scope: { tenantId: principal.tenantId }, action: 'user.role_changed', resource: { type: 'user', id: userId }, changes: before.role === role ? [] : [{ field: 'role', before: before.role, after: role }] }, nowMs);
  return toTenantUserView(await setUserRole(principal.tenantId, userId, role, new Date(nowMs).toISOString(), record));
}

/** Removes a user from the tenant (an administrator may remove themselves unless they are the last one). */
export async function removeUser(principal: Principal, userId: string, nowMs: number): Promise<void> {
  requireTenantAdmin(principal);
  await deleteUser(principal.tenantId, userId, auditRecord({ scope: { tenantId: principal.tenantId }, action: 'user.removed', resource: { type: 'user', id: userId } }, nowMs));
}
