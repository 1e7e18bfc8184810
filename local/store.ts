import { join, relative } from 'node:path';
import { ensureTable, freePort, isReachable, startDynamoLocal } from './dynamodb-local';
import { applyLocalEnvironment, localSettings } from './environment';
import { clearRuntimeInfo, repoRoot, runtimeState, type RuntimeInfo } from './runtime';
import { settingsEnvironment } from '../lib/settings';

/**
 * The store of the command-line tools (create-admin, seed, job, migrate), and the rule that
 * keeps them from writing where no API reads (`npm run create-admin` with another
 * DATA_DIR than the running `npm start` started a store of its own, said it succeeded, and
 * the login then failed):
 *
 * - an `npm start` runs on `$DATA_DIR` (its runtime.json names a live process): the tool
 *   uses that API's DynamoDB Local;
 * - none does: the tool refuses (exit 1), saying so, unless `--private-store` is given; then
 *   it starts a DynamoDB Local of its own on `$DATA_DIR` for its lifetime (a later `npm
 *   start` on that folder sees what it wrote);
 * - a runtime.json whose process is gone is stale: removed, and the folder counts as free;
 *   one whose process lives but whose DynamoDB does not answer is refused (two DynamoDB
 *   Locals must not share a database file).
 *
 * Every tool prints (to stderr, so its output stays pipeable) the store it uses.
 */

/** The tool must not write here; the message says why and what to do. Exit code 1. */
export class StoreRefused extends Error {}

export interface LocalStoreOptions {
  /** `--private-store`: no `npm start` runs on `$DATA_DIR`, and the tool may start its own store there. */
  privateStore?: boolean;
  /** Where the one line naming the store goes; stderr by default. */
  log?: (line: string) => void;
}

export const PRIVATE_STORE_FLAG = '--private-store';

const shown = (dataDir: string) => {
  const fromRoot = relative(process.cwd(), dataDir);
  return fromRoot && !fromRoot.startsWith('..') ? fromRoot : dataDir;
};

/** The default folder's running API, named in a refusal when the tool looked elsewhere. */
function defaultFolderHint(dataDir: string): string {
  const defaultDir = join(repoRoot, '.data');
  if (defaultDir === dataDir) return '';
  const state = runtimeState(defaultDir);
  return state.kind === 'running'
    ? `\nnpm start is running on DATA_DIR=${shown(defaultDir)} (API ${state.info.apiUrl}): run this command without DATA_DIR to use it.`
    : '';
}

/**
 * Which local store a tool may use: the running API's, or (with `--private-store` and no API
 * on `$DATA_DIR`) one of its own. Throws `StoreRefused` otherwise; starts nothing, so a tool
 * can ask before it prompts for anything.
 */
export async function chooseLocalStore(options: LocalStoreOptions = {}): Promise<{ kind: 'running'; info: RuntimeInfo } | { kind: 'private' }> {
  const log = options.log ?? ((line: string) => console.error(line));
  const { dataDir } = localSettings();
  const state = runtimeState(dataDir);
  if (state.kind === 'stale') {
    clearRuntimeInfo(dataDir);
    log(`Removed a stale ${shown(join(dataDir, 'runtime.json'))} (${state.pid === undefined ? 'unreadable' : `process ${state.pid} is not running`}).`);
  }
  if (state.kind === 'running') {
    const { dynamoEndpoint, pid } = state.info;
    if (await isReachable(dynamoEndpoint)) return state;
    throw new StoreRefused(
      `npm start (process ${pid}) is registered on DATA_DIR=${shown(dataDir)}, but its DynamoDB Local does not answer at ${dynamoEndpoint}.\n` +
        `Wait until it has started (or stopped) and run this again; if process ${pid} is not npm start, remove ${join(dataDir, 'runtime.json')}.`,
    );
  }
  if (options.privateStore) return { kind: 'private' };
  throw new StoreRefused(
    `No npm start is running on DATA_DIR=${shown(dataDir)}: nothing would read what this command writes, so it stops here.\n` +
      `Start the API on that folder first (DATA_DIR=${shown(dataDir)} npm start), or set DATA_DIR to the running API's folder,\n` +
      `or add ${PRIVATE_STORE_FLAG} to write into ${shown(dataDir)} with a DynamoDB Local of this command's own (npm start on that folder sees it later).` +
      defaultFolderHint(dataDir),
  );
}

/** Connect this process's repositories to the store `chooseLocalStore` allows, and say which. */
export async function connectLocalStore(options: LocalStoreOptions = {}): Promise<{ stop: () => Promise<void> }> {
  const log = options.log ?? ((line: string) => console.error(line));
  const settings = localSettings();
  const choice = await chooseLocalStore(options);
  if (choice.kind === 'running') {
    await applyLocalEnvironment(settings, choice.info.dynamoEndpoint);
    log(`Store: the running API's store (DynamoDB Local at ${choice.info.dynamoEndpoint}, API ${choice.info.apiUrl}).`);
    return { stop: () => Promise.resolve() };
  }
  const dynamo = await startDynamoLocal({ port: await freePort(), dbPath: join(settings.dataDir, 'dynamodb') });
  try {
    await applyLocalEnvironment(settings, dynamo.endpoint);
    await ensureTable(dynamo.endpoint, process.env.TABLE_NAME ?? 'backoffice');
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
  log(`Store: a private DynamoDB Local on DATA_DIR=${shown(settings.dataDir)} (no npm start runs on it).`);
  return { stop: () => dynamo.stop() };
}

/**
 * The store of an operator command: the deployed table `table` when given (only what the
 * repositories need is set; credentials and region come from the usual AWS chain), else the
 * local store.
 */
export async function connectStore(table: string | undefined, options: LocalStoreOptions = {}): Promise<{ stop: () => Promise<void> }> {
  if (table === undefined) return connectLocalStore(options);
  Object.assign(process.env, {
    TABLE_NAME: table,
    BCRYPT_COST: process.env.BCRYPT_COST ?? settingsEnvironment.BCRYPT_COST,
    AUDIT_RETENTION_DAYS: process.env.AUDIT_RETENTION_DAYS ?? settingsEnvironment.AUDIT_RETENTION_DAYS,
    ACCESS_RECORD_RETENTION_DAYS: process.env.ACCESS_RECORD_RETENTION_DAYS ?? settingsEnvironment.ACCESS_RECORD_RETENTION_DAYS,
  });
  (options.log ?? ((line: string) => console.error(line)))(
    `Store: the deployed table ${table} (region and credentials from the AWS chain: AWS_REGION, AWS_PROFILE, …).`,
  );
  return { stop: () => Promise.resolve() };
}
