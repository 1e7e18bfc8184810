import { randomUUID } from 'node:crypto';
import { auditRecord } from '../../lib/audit/record';
import { newRecoveryCodes, recoveryCodeHash } from '../../lib/auth/mfa';
import { hashPassword } from '../../lib/auth/passwords';
import { newTotpSecret, stepAt, totpUri } from '../../lib/auth/totp';
import { isSessionLive } from '../../lib/auth/session-state';
import { listSessionsOfUser } from '../../lib/auth/sessions-repository';
import type { Credentials, User } from '../../lib/auth/model';
import { findTenantIdByName, getTenant, insertTenant } from '../../lib/tenants/repository';
import { findUserByEmail, insertPlatformAdmin, promoteToPlatformAdmin } from '../../lib/auth/users-repository';
import type { Tenant } from '../../lib/tenants/model';

export interface AdminInput {
  email: string;
  password: string;
  name: string;
  tenantName: string;
  /** Allow turning an existing account into a platform administrator. */
  promote: boolean;
}

/** The administrator's second factor, enrolled by the command: shown to the operator once. */
export interface EnrolledFactor {
  otpauthUri: string;
  secret: string;
  recoveryCodes: string[];
}

export type AdminOutcome =
  | { kind: 'created'; tenantId: string; tenantName: string; tenantCreated: boolean; secondFactor: EnrolledFactor }
  | { kind: 'promoted'; tenantId: string; sessionsEnded: number; secondFactor: EnrolledFactor };

/**
 * A platform administrator always has a second factor: a new TOTP secret and
 * recovery codes, enrolled with the account. Codes of the current step (and one either side)
 * are accepted from the start.
 */
function newSecondFactor(email: string, nowMs: number): { shown: EnrolledFactor; stored: { secret: string; lastStep: number; recoveryCodeHashes: string[] } } {
  const secret = newTotpSecret();
  const recoveryCodes = newRecoveryCodes();
  return {
    shown: { otpauthUri: totpUri(secret, email), secret, recoveryCodes },
    stored: { secret, lastStep: stepAt(nowMs) - 2, recoveryCodeHashes: recoveryCodes.map(recoveryCodeHash) },
  };
}

/** The administrator's credentials: the password given and the second factor enrolled. */
const credentialsOf = (
  user: Pick<User, 'tenantId' | 'id'>,
  credentialVersion: number,
  passwordHash: string,
  factor: { secret: string; lastStep: number; recoveryCodeHashes: string[] },
): Credentials => ({
  tenantId: user.tenantId,
  userId: user.id,
  credentialVersion,
  passwordHash,
  resetTokenHash: null,
  totpSecret: factor.secret,
  totpLastStep: factor.lastStep,
  totpPendingSecret: null,
  recoveryCodeHashes: factor.recoveryCodeHashes,
});

/** The command refuses to act; the message tells the operator why and what to do. */
export class AdminRefused extends Error {
  override name = 'AdminRefused';
}

/**
 * Grant the platform administrator profile.
 *
 * - No account with `email`: create one in the platform tenant `tenantName`, which must be
 *   a tenant this command created (marked `platform`); it is created, ENTERPRISE, when
 *   missing. A tenant of that name that someone signed up is refused.
 * - An existing account: refused unless `promote`. Promotion replaces its password with the
 *   given one and ends every session it has, so whoever registered the e-mail first keeps
 *   nothing of it.
 */
export async function promoteOrCreateAdmin(input: AdminInput, nowMs: number): Promise<AdminOutcome> {
  const now = new Date(nowMs).toISOString();
  const factor = newSecondFactor(input.email, nowMs);
  const existing = await findUserByEmail(input.email);
  if (existing) {
    if (!input.promote) {
      throw new AdminRefused(
        `An account with the e-mail ${input.email} already exists (tenant ${existing.tenantId}); nothing was changed. ` +
          'To make that account a platform administrator, run the command again with --promote: ' +
          'its password is then replaced by the one given and all its sessions end.',
      );
    }
    // The sessions live now: the promotion moves the credential version on, which ends each of
    // them (whatever this machine's clock says; lib/auth/session-state).
    const sessionsEnded = (await listSessionsOfUser(existing.tenantId, existing.id)).filter((session) => isSessionLive(session, existing, nowMs)).length;
    const promoted = auditRecord({ scope: 'platform', action: 'platform.admin_promoted', resource: { type: 'user', id: existing.id } }, nowMs);
    // The promotion moves the credential version on (promoteToPlatformAdmin): the new credentials are at the next one.
    await promoteToPlatformAdmin(
      existing,
      credentialsOf(existing, existing.credentialVersion + 1, await hashPassword(input.password), factor.stored),
      now,
      promoted,
    );
    return { kind: 'promoted', tenantId: existing.tenantId, sessionsEnded, secondFactor: factor.shown };
  }

  const userId = randomUUID();
  let tenantId = await findTenantIdByName(input.tenantName);
  const tenantCreated = !tenantId;
  if (tenantId) {
    const tenant = await getTenant(tenantId);
    if (tenant?.platform !== true) {
      throw new AdminRefused(
        `The tenant '${input.tenantName}' (${tenantId}) was not created by create-admin (it was signed up like any customer's), ` +
          'so it cannot hold a platform administrator; nothing was changed. Choose another name with --tenant.',
      );
    }
  } else {
    const tenant: Tenant = {
      id: randomUUID(),
      name: input.tenantName,
      brandName: null,
      document: null,
      address: null,
      phone: null,
      logoUrl: null,
      plan: 'ENTERPRISE',
      adminEmail: input.email,
      status: 'ACTIVE',
      mfaPolicy: 'OFF',
      baseAccountUserId: userId,
      createdAt: now,
      updatedAt: now,
      platform: true,
    };
    // The platform's trail, by the system (a script, outside any request).
    await insertTenant(tenant, auditRecord({ scope: 'platform', action: 'tenant.created', resource: { type: 'tenant', id: tenant.id } }, nowMs));
    tenantId = tenant.id;
  }
  // The platform mark is checked again inside the transaction that writes the user.
  const user: User = {
    id: userId,
    tenantId,
    name: input.name,
    email: input.email,
    role: 'ADMIN',
    platformAdmin: true,
    sessionsValidFrom: null,
    credentialVersion: 0,
    sessionCount: 0,
    sessionOpenings: 0,
    createdAt: now,
    updatedAt: now,
    totpEnabledAt: now,
    recoveryCodesLeft: factor.stored.recoveryCodeHashes.length,
  };
  await insertPlatformAdmin(
    user,
    credentialsOf(user, user.credentialVersion, await hashPassword(input.password), factor.stored),
    auditRecord({ scope: 'platform', action: 'platform.admin_promoted', resource: { type: 'user', id: userId } }, nowMs),
  );
  return { kind: 'created', tenantId, tenantName: input.tenantName, tenantCreated, secondFactor: factor.shown };
}
