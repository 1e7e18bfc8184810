/**
 * `npm run verify -- --tenant <id> | --all [--fix] [--json] [--table DEPLOYED_TABLE | --private-store]`
 *
 * Checks every invariant the service maintains for a tenant (lib/integrity): balances against
 * the replay of their movements, warehouse totals and products' on-hand against the balances,
 * the supplier count, and the uniqueness items against their records. Prints, per invariant,
 * how many records it checked and the drift it found with the items' keys, and exits 1 on
 * drift. `--fix` mends what is derived from what is recorded, by conditioned writes, and never
 * changes a movement; `--all` walks every tenant. Runs against the running `npm start`'s store,
 * a private one on $DATA_DIR, or a deployed table with the usual AWS credentials.
 */
import { parseArgs } from 'node:util';
import { allTenantIds, verifyTenant } from '../lib/integrity/engine';
import { driftOf, INVARIANT_TEXT, type TenantReport } from '../lib/integrity/model';
import { connectStore } from '../local/store';

async function* tenantIds(one: string | undefined): AsyncGenerator<string> {
  if (one) yield one;
  else yield* allTenantIds();
}

function printReport(report: TenantReport): void {
  console.log(`Tenant ${report.tenantId}`);
  for (const entry of report.invariants) {
    console.log(
      `  ${entry.drift.length === 0 ? 'ok   ' : 'DRIFT'} ${entry.invariant}: ${entry.checked} checked, ${entry.drift.length} drift (${INVARIANT_TEXT[entry.invariant]})`,
    );
    for (const drift of entry.drift.slice(0, 20))
      console.log(
        `        ${drift.detail} [${drift.keys.map((key) => `${key.pk} / ${key.sk}`).join(', ')}]${drift.fixable ? '' : ' (not fixable: recorded data)'}`,
      );
    if (entry.drift.length > 20) console.log(`        … and ${entry.drift.length - 20} more`);
  }
  if (report.fixed.length > 0) console.log(`  fixed: ${report.fixed.length}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      tenant: { type: 'string' },
      all: { type: 'boolean' },
      fix: { type: 'boolean' },
      json: { type: 'boolean' },
      table: { type: 'string' },
      'private-store': { type: 'boolean' },
    },
    strict: true,
  });
  if (!values.tenant === !values.all) throw new Error('Give --tenant <id> or --all');
  const store = await connectStore(values.table, { privateStore: values['private-store'] });
  let drifted = 0;
  const reports: TenantReport[] = [];
  try {
    for await (const tenantId of tenantIds(values.tenant)) {
      const report = await verifyTenant(tenantId, { fix: values.fix, ...(values.json ? {} : { progress: (line) => console.error(line) }) });
      // After a repair, what is left is what a fresh check finds.
      const left = report.fixed.length > 0 ? driftOf(await verifyTenant(tenantId)).length : driftOf(report).length;
      if (left > 0) drifted += 1;
      if (values.json) reports.push(report);
      else printReport(report);
    }
  } finally {
    await store.stop();
  }
  if (values.json)
    console.log(JSON.stringify({ tenants: reports, drifted }, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2));
  else console.log(drifted === 0 ? 'No drift.' : `Drift in ${drifted} tenant(s).`);
  process.exitCode = drifted === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
