import type { AuditScope } from '../audit/model';
import { moveKeyAddressesOf } from '../api-keys/repository';
import { moveOriginsOfTrail } from '../audit/repository';
import { listTenantPage, type TenantPosition } from '../tenants/repository';

/**
 * The one-off upgrade of the audit trails written before an entry's origin (IP address,
 * User-Agent) was kept apart from it (`npm run migrate`; docs/decisions.md, "Access records
 * apart from the trail"): every tenant's trail, then the platform's. An entry still inside the
 * access records' period gets its origin item, expiring as a new entry's would; an older one
 * just loses its origin. Idempotent: a second run finds nothing to move.
 *
 * Run it after backfillListings (tools/admin), which moves tenants from before the name
 * shards to theirs: only tenants listed by name are reached.
 */
export async function moveEntryOrigins(nowMs: number): Promise<{ trails: number; moved: number; dropped: number }> {
  const totals = { trails: 0, moved: 0, dropped: 0 };
  const move = async (scope: AuditScope) => {
    const { moved, dropped } = await moveOriginsOfTrail(scope, nowMs);
    totals.trails += 1;
    totals.moved += moved;
    totals.dropped += dropped;
  };
  let after: TenantPosition | undefined;
  do {
    const page = await listTenantPage({ limit: 100, ...(after ? { after } : {}) });
    for (const tenant of page.tenants) await move({ tenantId: tenant.id });
    after = page.last;
  } while (after);
  await move('platform');
  return totals;
}

/**
 * The one-off upgrade of the API keys written before a last use's address was kept apart from
 * the key (`npm run migrate`; docs/decisions.md, "API keys"): every tenant's keys. An address
 * inside the access records' period moves to its own item, expiring by their rule; an older
 * one is dropped. Idempotent.
 */
export async function moveKeyAddresses(nowMs: number): Promise<{ moved: number; dropped: number }> {
  const totals = { moved: 0, dropped: 0 };
  let after: TenantPosition | undefined;
  do {
    const page = await listTenantPage({ limit: 100, ...(after ? { after } : {}) });
    for (const tenant of page.tenants) {
      const { moved, dropped } = await moveKeyAddressesOf(tenant.id, nowMs);
      totals.moved += moved;
      totals.dropped += dropped;
    }
    after = page.last;
  } while (after);
  return totals;
}
