import { randomUUID } from 'node:crypto';
import { hashPassword } from '../auth/passwords';
import { findTenantIdByName, insertTenant, type Tenant } from '../db/repositories/tenants';
import { findUserByEmail, insertUser, setPlatformAdmin } from '../db/repositories/users';

export interface AdminOutcome {
  created: boolean;
  tenantId: string;
  tenantName: string;
}

/**
 * Grant the platform administrator profile: promote the user who owns `email`, or create
 * one as the base account of tenant `tenantName` (created, ENTERPRISE, when missing).
 */
export async function promoteOrCreateAdmin(
  input: { email: string; password: string; name: string; tenantName: string },
  nowMs: number,
): Promise<AdminOutcome> {
  const now = new Date(nowMs).toISOString();
  const existing = await findUserByEmail(input.email);
  if (existing) {
    await setPlatformAdmin(existing, now);
    return { created: false, tenantId: existing.tenantId, tenantName: input.tenantName };
  }

  const userId = randomUUID();
  let tenantId = await findTenantIdByName(input.tenantName);
  if (!tenantId) {
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
      baseAccountUserId: userId,
      createdAt: now,
      updatedAt: now,
    };
    await insertTenant(tenant);
    tenantId = tenant.id;
  }
  await insertUser({
    id: userId,
    tenantId,
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
    role: 'ADMIN',
    platformAdmin: true,
    sessionsValidFrom: null,
    resetTokenHash: null,
    createdAt: now,
    updatedAt: now,
  });
  return { created: true, tenantId, tenantName: input.tenantName };
}
