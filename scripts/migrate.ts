/**
 * `npm run migrate [-- --table DEPLOYED_TABLE | --private-store]`
 *
 * Moves every user's secrets into its credentials item (tools/admin/move-credentials.ts) and
 * writes the list entries that older items lack (tools/admin/backfill-listings.ts): run it
 * once on a store that holds data from before,
 * locally (the running `npm start`'s store, or with `--private-store` one started on
 * $DATA_DIR when none runs there; local/store.ts) or on a deployed
 * table with the usual AWS credentials. Running it again changes nothing.
 */
import { parseArgs } from 'node:util';
import { backfillListings } from '../tools/admin/backfill-listings';
import { moveCredentials } from '../tools/admin/move-credentials';
import { connectStore } from '../local/store';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { table: { type: 'string' }, 'private-store': { type: 'boolean' } }, strict: true });
  const store = await connectStore(values.table, { privateStore: values['private-store'] });
  try {
    const { moved } = await moveCredentials();
    console.log(`Credentials moved to their own items: ${moved} users.`);
    const counts = await backfillListings();
    console.log(`List entries written: ${counts.warehouses} warehouses, ${counts.companies} companies, ${counts.productSentinels} product SKU sentinels, ${counts.users} users; ${counts.tenants} tenants moved to their name shard; ${counts.coverageTenants} tenants with products registered for the coverage job; ${counts.supplierBlocks} supplier index blocks built; ${counts.searchLists} supplier and product lists given their search chunks.`);
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
