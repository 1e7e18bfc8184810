/**
 * `npm run migrate [-- --table DEPLOYED_TABLE]`
 *
 * Writes the list entries that items created before issue 15 lack
 * (tools/admin/backfill-listings.ts): run it once on a store that holds data from before,
 * locally (the running `npm start`'s store, or one started on $DATA_DIR) or on a deployed
 * table with the usual AWS credentials. Running it again changes nothing.
 */
import { parseArgs } from 'node:util';
import { backfillListings } from '../tools/admin/backfill-listings';
import { settingsEnvironment } from '../lib/settings';
import { connectLocalStore } from '../local/store';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { table: { type: 'string' } }, strict: true });
  let store: { stop: () => Promise<void> } | undefined;
  if (values.table) {
    Object.assign(process.env, { TABLE_NAME: values.table, BCRYPT_COST: process.env.BCRYPT_COST ?? settingsEnvironment.BCRYPT_COST });
  } else {
    store = await connectLocalStore();
  }
  try {
    const counts = await backfillListings();
    console.log(`List entries written: ${counts.warehouses} warehouses, ${counts.companies} companies, ${counts.productSentinels} product SKU sentinels; ${counts.tenants} tenants moved to their name shard.`);
  } finally {
    await store?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
