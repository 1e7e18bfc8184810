import { randomUUID } from 'node:crypto';
import type { Principal } from '../../lib/auth/principal';
import { getTenant } from '../../lib/tenants/repository';
import { createTenant } from '../../lib/tenants/service';

/**
 * A new tenant, made by the service's own sign-up (createTenant: the tenant item, ACTIVE,
 * and its name's sentinel), and its administrator as the authorizer would describe one, for
 * the benchmarks' in-process calls. A principal alone is not enough: paths that check the
 * tenant's item (the daily job marks the coverage index current only for a tenant that exists
 * and is not being deleted) would quietly fall back to their slow way.
 *
 * `label`: a slug (lower-case letters, digits, single dashes) naming what the tenant is for.
 */
export async function benchTenant(label: string, nowMs: number = Date.now()): Promise<Principal> {
  const { id } = await createTenant({ name: `bench-${label}-${randomUUID().slice(0, 8)}`, plan: 'ENTERPRISE' }, nowMs);
  return benchAdministrator(id);
}

/** The administrator of `tenantId`, a tenant that must exist (made by benchTenant): fails loudly if it does not. */
export async function benchAdministratorOf(tenantId: string): Promise<Principal> {
  const tenant = await getTenant(tenantId);
  if (!tenant) throw new Error(`bench: tenant ${tenantId} has no tenant item; make it with benchTenant`);
  return benchAdministrator(tenantId);
}

function benchAdministrator(tenantId: string): Principal {
  return {
    kind: 'user',
    tenantId,
    userId: randomUUID(),
    sessionId: randomUUID(),
    jti: randomUUID(),
    role: 'ADMIN',
    platformAdmin: false,
    name: 'Bench',
    email: 'bench@example.com',
    tokenExpiresAt: 0,
    sessionsValidFrom: null,
    credentialVersion: 0,
    mfaEnrolmentRequired: false,
  };
}
