import { join } from 'node:path';
import { ensureTable, freePort, isReachable, startDynamoLocal, type DynamoLocal } from './dynamodb-local';
import { applyLocalEnvironment, localSettings } from './environment';
import { readRuntimeInfo } from './runtime';
import { settingsEnvironment } from '../lib/settings';

/**
 * The local store for command-line tools: the DynamoDB Local of a running `npm start` when
 * there is one (they share `$DATA_DIR`), otherwise one started on `$DATA_DIR` for the
 * command's lifetime. The returned `stop` ends only what this call started.
 */
export async function connectLocalStore(): Promise<{ stop: () => Promise<void> }> {
  const settings = localSettings();
  const running = readRuntimeInfo(settings.dataDir);
  if (running && (await isReachable(running.dynamoEndpoint))) {
    await applyLocalEnvironment(settings, running.dynamoEndpoint);
    return { stop: () => Promise.resolve() };
  }
  const dynamo: DynamoLocal = await startDynamoLocal({ port: await freePort(), dbPath: join(settings.dataDir, 'dynamodb') });
  await applyLocalEnvironment(settings, dynamo.endpoint);
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME ?? 'backoffice');
  return { stop: () => dynamo.stop() };
}

/**
 * The store of an operator command: the deployed table `table` when given (only what the
 * repositories need is set; credentials and region come from the usual AWS chain), else the
 * local store.
 */
export async function connectStore(table: string | undefined): Promise<{ stop: () => Promise<void> }> {
  if (table === undefined) return connectLocalStore();
  Object.assign(process.env, { TABLE_NAME: table, BCRYPT_COST: process.env.BCRYPT_COST ?? settingsEnvironment.BCRYPT_COST, AUDIT_RETENTION_DAYS: process.env.AUDIT_RETENTION_DAYS ?? settingsEnvironment.AUDIT_RETENTION_DAYS });
  return { stop: () => Promise.resolve() };
}
