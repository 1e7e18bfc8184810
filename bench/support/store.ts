import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resetConfig } from '../../lib/config';
import { logger } from '../../lib/log';
import { ensureTable, freePort, startDynamoLocal } from '../../local/dynamodb-local';
import { applyLocalEnvironment } from '../../local/environment';
import { ALLOWED_ORIGIN } from '../../tools/events';

/** A fresh in-memory DynamoDB Local with the service's table and configuration, for one run. */
export async function benchStore(): Promise<{ endpoint: string; dataDir: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-bench-'));
  // The origin the benchmark's events come from.
  process.env.ALLOWED_ORIGINS ??= ALLOWED_ORIGIN;
  const dynamo = await startDynamoLocal({ port: await freePort() });
  await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, dynamo.endpoint);
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  logger.setLogLevel('SILENT');
  // The local outbox prints every message's links; thousands of invitations are noise here.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith('[mail]')) return;
    warn(...args);
  };
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
