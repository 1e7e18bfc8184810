import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetConfig } from '../../lib/config';
import { ensureTable, freePort, startDynamoLocal } from '../../local/dynamodb-local';
import { applyLocalEnvironment } from '../../local/environment';

/** A fresh in-memory DynamoDB Local with the service's table and configuration, for one run. */
export async function benchStore(): Promise<{ endpoint: string; dataDir: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-bench-'));
  const dynamo = await startDynamoLocal({ port: await freePort() });
  await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, dynamo.endpoint);
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  resetConfig();
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME ?? 'backoffice');
  return {
    endpoint: dynamo.endpoint,
    dataDir,
    stop: async () => {
      await dynamo.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
