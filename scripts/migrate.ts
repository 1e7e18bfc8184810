/**
 * `npm run migrate [-- --table DEPLOYED_TABLE | --private-store]`
 *
 * Moves every user's secrets into its credentials item (tools/admin/move-credentials.ts), counts
 * the recovery codes of each user with a second factor onto the user item
 * (tools/admin/count-recovery-codes.ts),
 * writes the list entries that older items lack (tools/admin/backfill-listings.ts) and moves
 * the audit entries' origins (IP address, User-Agent) and the API keys' last-use addresses into
 * their own items, which expire after ACCESS_RECORD_RETENTION_DAYS (lib/privacy/access-records.ts): run it
 * once on a store that holds data from before,
 * locally (the running `npm start`'s store, or with `--private-store` one started on
 * $DATA_DIR when none runs there; local/store.ts) or on a deployed
 * table with the usual AWS credentials. Running it again changes nothing.
 */
import { parseArgs } from 'node:util';
import { backfillListings } from '../tools/admin/backfill-listings';
import { countRecoveryCodes } from '../tools/admin/count-recovery-codes';
import { moveCredentials } from '../tools/admin/move-credentials';
import { storeConfig } from '../lib/config';
import { moveEntryOrigins, moveKeyAddresses } from '../lib/privacy/access-records';
import { settingsEnvironment } from '../lib/settings';
import { connectStore } from '../local/store';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { table: { type: 'string' }, 'private-store': { type: 'boolean' } }, strict: true });
  // Against a deployed table the store's settings come from lib/settings unless the environment sets them.
  process.env.ACCESS_RECORD_RETENTION_DAYS ??= settingsEnvironment.ACCESS_RECORD_RETENTION_DAYS;
  const store = await connectStore(values.table, { privateStore: values['private-store'] });
  try {
    const { moved } = await moveCredentials();
    console.log(`Credentials moved to their own items: ${moved} users.`);
    const { counted } = await countRecoveryCodes();
    console.log(`Recovery codes counted on the user item: ${counted} users with a second factor.`);
    const counts = await backfillListings();
    console.log(
      `List entries written: ${counts.warehouses} warehouses, ${counts.companies} companies, ${counts.productSentinels} product SKU sentinels, ${counts.productStatusEntries} products in their status's list, ${counts.warehouseCompanies} warehouses given their tenant's oldest company, ${counts.warehouseValues} warehouses valued at last cost, ${counts.users} users; ${counts.tenants} tenants moved to their name shard; ${counts.coverageTenants} tenants with products registered for the coverage job; ${counts.supplierBlocks} supplier index blocks built; ${counts.searchLists} supplier and product lists given their search chunks.`,
    );
    // After the tenants moved to their name shards: the origins are moved trail by trail, tenant by tenant.
    const origins = await moveEntryOrigins(Date.now());
    console.log(
      `Audit entries' origins kept apart: ${origins.moved} moved, ${origins.dropped} past ${storeConfig().ACCESS_RECORD_RETENTION_DAYS} days dropped, over ${origins.trails} trails.`,
    );
    const addresses = await moveKeyAddresses(Date.now());
    console.log(
      `API keys' last-use addresses kept apart: ${addresses.moved} moved, ${addresses.dropped} past ${storeConfig().ACCESS_RECORD_RETENTION_DAYS} days dropped.`,
    );
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
