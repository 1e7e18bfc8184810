import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `verify` (lib/integrity) over every tenant of the shared store once the integration files
 * have run: each maintained number must still match what is recorded after every path the
 * tests took, failures included. Tenants a test corrupted on purpose (to prove the checker
 * finds it, or that the service survives it) are named in the data folder's
 * `planted-tenants` by `plantedFaults` and left out.
 */
const PLANTED = 'planted-tenants';

/** Leave this tenant out of the final verification: the test plants faults in it on purpose. */
export function markPlanted(dataDir: string, tenantId: string): void {
  appendFileSync(join(dataDir, PLANTED), `${tenantId}\n`);
}

/** Every drift found, one line each (empty: clean), and how many tenants were verified. */
export async function verifySharedStore(dataDir: string): Promise<{ tenants: number; skipped: number; drift: string[] }> {
  const { applyLocalEnvironment } = await import('../../local/environment');
  const { readRuntimeInfo } = await import('../../local/runtime');
  const { resetConfig } = await import('../../lib/config');
  const { allTenantIds, verifyTenant } = await import('../../lib/integrity/engine');
  const { driftOf } = await import('../../lib/integrity/model');
  const runtime = readRuntimeInfo(dataDir);
  if (!runtime) throw new Error('the local API did not record its store');
  await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, runtime.dynamoEndpoint);
  resetConfig();

  const planted = new Set(existsSync(join(dataDir, PLANTED)) ? readFileSync(join(dataDir, PLANTED), 'utf8').split('\n').filter(Boolean) : []);
  const drift: string[] = [];
  let tenants = 0;
  let skipped = 0;
  let batch: string[] = [];
  // Eight tenants at a time: each is a few Queries of its own partitions.
  const check = async () => {
    for (const report of await Promise.all(batch.map((tenantId) => verifyTenant(tenantId))))
      for (const found of driftOf(report))
        drift.push(`${report.tenantId} ${found.invariant}: ${found.detail} [${found.keys.map((key) => `${key.pk} / ${key.sk}`).join(', ')}]`);
    tenants += batch.length;
    batch = [];
  };
  for await (const tenantId of allTenantIds()) {
    if (planted.has(tenantId)) skipped += 1;
    else batch.push(tenantId);
    if (batch.length === 8) await check();
  }
  await check();
  return { tenants, skipped, drift };
}
