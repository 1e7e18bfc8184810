import { auditRecord } from '../audit/record';
import type { Principal } from './principal';
import type { User } from './model';
import type { TenantUserView } from './schemas';
import { resetSecondFactor } from './mfa-repository';
import { failPendingJobs } from '../background/pending-jobs';
import { deleteUser, getUser, listUserPage, setUserRole } from './users-repository';
import { Conflict, Forbidden, NotFound } from '../errors';
import { mailer } from '../mail/mailer';
import { sendQuietly } from '../mail/send-quietly';
import { secondFactorResetMail } from '../mail/templates';
import { countSessionsRevoked } from '../metrics';
import { keyOrderedPage, type Page, type PageRequest } from '../pages';

/**
 * Users of a tenant, administered by its administrators: the list by name, a role
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
    auditRecord(
      {
        scope: { tenantId: principal.tenantId },
        action: 'user.role_changed',
        resource: { type: 'user', id: userId },
        changes: before.role === role ? [] : [{ field: 'role', before: before.role, after: role }],
      },
      nowMs,
    );
  const view = toTenantUserView(await setUserRole(principal.tenantId, userId, role, new Date(nowMs).toISOString(), record));
  // A member may no longer run what needs an administrator: their imports and audit exports stop at once (lib/background).
  if (role !== 'ADMIN')
    await failPendingJobs(
      principal.tenantId,
      { userId, onlyAdminJobs: true },
      'The user who started this job is no longer a tenant administrator: the job was stopped',
      new Date(nowMs).toISOString(),
    );
  return view;
}

/** Removes a user from the tenant (an administrator may remove themselves unless they are the last one). */
export async function removeUser(principal: Principal, userId: string, nowMs: number): Promise<void> {
  requireTenantAdmin(principal);
  await deleteUser(
    principal.tenantId,
    userId,
    auditRecord({ scope: { tenantId: principal.tenantId }, action: 'user.removed', resource: { type: 'user', id: userId } }, nowMs),
  );
  // Their jobs stop at once, and an upload link they still hold leads nowhere (lib/background).
  await failPendingJobs(
    principal.tenantId,
    { userId, onlyAdminJobs: false },
    'The user who started this job was removed: the job was stopped',
    new Date(nowMs).toISOString(),
  );
}

/**
 * DELETE /users/{id}/mfa: an administrator resets a user's second factor, for a user who lost
 * both the authenticator and the recovery codes. A tenant administrator may reset a member's
 * in the tenant; an administrator's is reset by a platform administrator (any tenant, named by
 * `tenantId`), so one administrator's stolen cookie cannot strip the others'. Nobody resets
 * their own here (DELETE /auth/mfa/totp takes a code or a recovery code), and a platform
 * administrator's is never reset by a route (`create-admin --promote` enrols a new one). The
 * user's sessions all end (the credential version moves on) and the user is mailed.
 */
export async function resetUserSecondFactor(principal: Principal, userId: string, tenantId: string | undefined, nowMs: number): Promise<void> {
  const tenant = tenantId ?? principal.tenantId;
  if (!principal.platformAdmin) {
    requireTenantAdmin(principal);
    // Another tenant's user is a 404 to a tenant administrator, never a 403.
    if (tenant !== principal.tenantId) throw new NotFound('No such user');
  }
  const user = await getUser(tenant, userId);
  if (!user) throw new NotFound('No such user');
  if (user.id === principal.userId) throw new Forbidden('Turn your own second factor off with DELETE /auth/mfa/totp and a code or a recovery code');
  if (user.platformAdmin) throw new Forbidden("A platform administrator's second factor is replaced with `npm run create-admin -- --promote`");
  if (!principal.platformAdmin && user.role === 'ADMIN') throw new Forbidden("An administrator's second factor is reset by a platform administrator");
  if (!user.totpEnabledAt) throw new Conflict('The user has no second factor');

  const record = auditRecord({ scope: { tenantId: tenant }, action: 'user.mfa_reset', resource: { type: 'user', id: user.id } }, nowMs);
  if (!(await resetSecondFactor(user, new Date(nowMs).toISOString(), record))) throw new Conflict('The second factor changed meanwhile; look again');
  countSessionsRevoked('second_factor_reset');
  await sendQuietly(async () => (await mailer()).send(secondFactorResetMail(user.email)), 'second factor reset notification');
}
