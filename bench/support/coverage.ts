import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';

/**
 * Fails, saying why, unless the tenant's coverage index of `days` is marked current for
 * `today`: the dashboard reads the index only then (readCoverageIndexPage) and otherwise
 * answers from the full read of the catalog, the very cost a coverage figure is meant to show
 * gone. The daily job marks it only for a tenant whose own item exists and is not being deleted.
 */
export async function expectCoverageIndexCurrent(tenantId: string, days: number, today: string, when: string): Promise<void> {
  const { Item: marker } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.coverageMarker(tenantId, days), ConsistentRead: true }));
  if (marker?.through !== today) {
    const found = marker ? `marked for ${String(marker.through)}` : 'never marked';
    throw new Error(
      `coverage: ${when}, the index of tenant ${tenantId} (days=${days}) is ${found}, not for ${today}: its pages would be the full read, not the index`,
    );
  }
}
