/**
 * `npm start [-- --no-watch | --bundles]`: the whole API on http://127.0.0.1:$PORT, locally,
 * as it runs on AWS: DynamoDB Local persisted under $DATA_DIR, the table created on first
 * start from the stack's own definition, and the API Gateway emulator running the same
 * handlers and the same authorizer. A change under functions/ or lib/ reloads the handlers
 * (local/hot-reload.ts) unless `--no-watch` is given (the integration tests' API,
 * tools/local-api.ts). With `--bundles` it runs the synthesized bundles of cdk.out instead,
 * with each function's template environment and IAM grants (local/bundles/local-api.ts).
 * LOCAL_FAULT_RATE (source mode only) makes a share of DynamoDB calls fail (local/faults.ts).
 * In source mode bcrypt runs in a pool of worker threads (local/password-pool.ts), as each
 * Lambda computes it on its own vCPU; LOCAL_PASSWORD_HASHER=in-process keeps it in process.
 *
 * Ports: the API's PORT (3000) is the address clients are configured with, so when it is
 * taken the start fails and says so; DYNAMODB_PORT (8000) is found by the other local
 * commands through $DATA_DIR/runtime.json, so when it is taken a free port is used instead.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { usePasswordHasher } from '../lib/auth/passwords';
import { config } from '../lib/config';
import { routeList } from '../lib/routes';
import { buildConsole, CONSOLE_PATH, consoleBuildIsStale, withConsole } from './console-server';
import { withDocs } from './docs-server';
import { startLocalBackground } from './background';
import { localImportUploads } from './imports';
import { withLocalFiles } from './files';
import { ensureTable, freePort, isPortFree, startDynamoLocal } from './dynamodb-local';
import { applyLocalEnvironment, localSettings } from './environment';
import { createGateway, createGatewayServer } from './gateway';
import { startBundleMode, type BundleMode } from './bundles/local-api';
import { startHotReload } from './hot-reload';
import { faultSettings, faultSummary, injectFaults } from './faults';
import { db } from '../lib/db/client';
import { localPasswordHasher, startPasswordPool } from './password-pool';
import { clearRuntimeInfo, loadAuthorizer, loadCurrentJob, loadHandler, runtimeState, writeRuntimeInfo } from './runtime';
import { startSchedules } from './scheduler';
import { startWebhookEngine } from './webhooks';

async function main(): Promise<void> {
  const args = parseArgs({
    options: { watch: { type: 'boolean', default: true }, bundles: { type: 'boolean', default: false } },
    allowNegative: true,
    strict: true,
  }).values;
  // The bundles are built by cdk synth, not from the sources on each change: nothing to watch.
  const { bundles } = args;
  const watch = args.watch && !bundles;
  const settings = localSettings();
  const inMemory = process.env.DYNAMODB_IN_MEMORY === '1';
  const hasher = localPasswordHasher();

  // One npm start per data folder: two DynamoDB Locals must not share a database file.
  const previous = runtimeState(settings.dataDir);
  if (previous.kind === 'running') {
    throw new Error(
      `npm start is already running on DATA_DIR=${settings.dataDir} (process ${previous.info.pid}, API ${previous.info.apiUrl}). Stop it first, or use another DATA_DIR.`,
    );
  }
  if (previous.kind === 'stale')
    console.log(
      `Removed a stale ${join(settings.dataDir, 'runtime.json')} (${previous.pid === undefined ? 'unreadable' : `process ${previous.pid} is not running`}).`,
    );
  if (settings.port !== 0 && !(await isPortFree(settings.port))) {
    throw new Error(
      `Port ${settings.port} is taken (another npm start, from this checkout or another?). Stop what uses it, or choose another port: PORT=${settings.port + 1} npm start`,
    );
  }
  // The console's build (about a second, only when console/dist is missing or stale) runs
  // while DynamoDB Local starts; requests under /console wait for it.
  const consoleReady = consoleBuildIsStale() ? buildConsole((line) => console.log(line)) : Promise.resolve();
  consoleReady.catch((error: unknown) => console.error(error instanceof Error ? error.message : error));
  let dynamoPort = settings.dynamoPort === 0 ? await freePort() : settings.dynamoPort;
  if (settings.dynamoPort !== 0 && !(await isPortFree(dynamoPort))) {
    dynamoPort = await freePort();
    console.log(
      `DynamoDB port ${settings.dynamoPort} is taken: DynamoDB Local uses port ${dynamoPort} instead (the other local commands find it in ${join(settings.dataDir, 'runtime.json')}).`,
    );
  }
  const dynamo = await startDynamoLocal({ port: dynamoPort, dbPath: inMemory ? undefined : join(settings.dataDir, 'dynamodb') });
  let table: 'created' | 'exists';
  try {
    await applyLocalEnvironment(settings, dynamo.endpoint);
    table = await ensureTable(dynamo.endpoint, config().TABLE_NAME);
  } catch (error) {
    await dynamo.stop();
    throw error;
  }
  const { TABLE_NAME, ALLOWED_ORIGINS } = config();
  // Fault injection (npm run chaos): on this process's one DynamoDB client, which the handlers
  // share in source mode; the bundles carry clients of their own and never take it.
  const faults = faultSettings();
  const faultCounts = new Map<string, number>();
  if (faults && bundles) {
    await dynamo.stop();
    throw new Error('LOCAL_FAULT_RATE runs the handlers from source: drop --bundles');
  }
  if (faults) {
    injectFaults(db(), { ...faults, onFault: (kind) => faultCounts.set(kind, (faultCounts.get(kind) ?? 0) + 1) });
    console.log(`[faults] ${faults.rate * 100} % of DynamoDB calls fail (LOCAL_FAULT_SEED=${faults.seed})`);
  }
  let bundleMode: BundleMode | undefined;
  try {
    bundleMode = bundles ? await startBundleMode({ dataDir: settings.dataDir, dynamoEndpoint: dynamo.endpoint, log: (line) => console.log(line) }) : undefined;
  } catch (error) {
    await dynamo.stop();
    throw error;
  }

  // bcrypt off the event loop, as each Lambda has its own vCPU (local/password-pool.ts); the
  // bundles run in worker threads of their own already.
  const passwordPool = bundleMode || hasher === 'in-process' ? undefined : startPasswordPool();
  usePasswordHasher(passwordPool);

  const gateway = createGateway({
    routes: routeList(),
    loadHandler: bundleMode ? bundleMode.runtime.loadHandler : loadHandler,
    loadAuthorizer: bundleMode ? bundleMode.runtime.loadAuthorizer : loadAuthorizer,
    allowedOrigins: ALLOWED_ORIGINS,
    log: (line) => console.log(line),
  });
  // GET /openapi.json and /docs (the reference page) in front of the API; the server answers
  // what Node's parser refuses (oversized or malformed requests) with the gateway's problems.
  // The console (/console/) and the docs in front of the API, on its origin.
  const docs = withDocs(gateway, { allowedOrigins: ALLOWED_ORIGINS, log: (line) => console.log(line) });
  // The bucket's links: import files PUT where POST /imports says, each one's job then run
  // here, step after step, with the code the deployed import worker runs (lib/imports/engine.ts);
  // the exports' files downloaded where GET /exports/{id} and GET /tenants/{id}/exports/{exportId} say.
  const files = withLocalFiles(
    docs,
    localImportUploads((line) => console.log(line)),
  );
  const server = createGatewayServer(withConsole(files, { ready: consoleReady, log: (line) => console.log(line) }), { allowedOrigins: ALLOWED_ORIGINS });
  server.keepAliveTimeout = 5_000;
  try {
    await new Promise<void>((resolveListen, reject) => {
      server.once('error', reject);
      server.listen(settings.port, '127.0.0.1', resolveListen);
    });
  } catch (error) {
    await dynamo.stop();
    throw (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
      ? new Error(`Port ${settings.port} is taken: choose another, e.g. PORT=${settings.port + 1} npm start`)
      : error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const apiUrl = `http://127.0.0.1:${port}`;
  writeRuntimeInfo(settings.dataDir, { pid: process.pid, dynamoEndpoint: dynamo.endpoint, apiUrl });
  // Webhooks: the table's stream to the receivers, and the retries (local/webhooks.ts);
  // started before the API says it listens, so no event written after that line is missed.
  let stopWebhooks: (() => Promise<void>) | undefined;
  try {
    stopWebhooks = await startWebhookEngine({ dynamoEndpoint: dynamo.endpoint, tableName: TABLE_NAME, log: (line) => console.log(line) });
  } catch (error) {
    console.log(`[webhooks] not started: ${error instanceof Error ? error.message : String(error)}`);
  }

  console.log(`DynamoDB Local on ${dynamo.endpoint} (${inMemory ? 'in memory' : `data in ${settings.dataDir}`}), table ${TABLE_NAME} ${table}`);
  console.log(`API listening on ${apiUrl}`);
  console.log(`Console on ${apiUrl}${CONSOLE_PATH}/`);
  console.log(`API reference on ${apiUrl}/docs (OpenAPI document: ${apiUrl}/openapi.json)`);
  if (!bundleMode)
    console.log(
      passwordPool
        ? `Passwords hashed by ${passwordPool.size} worker thread(s), off the event loop`
        : 'Passwords hashed on the event loop (LOCAL_PASSWORD_HASHER=in-process)',
    );
  const hotReload = watch ? startHotReload((line) => console.log(line)) : undefined;
  if (stopWebhooks) console.log("Webhooks: the table's stream delivered to the endpoints registered, retries every second");
  if (hotReload) console.log('Watching functions/ and lib/: a change reloads the handlers (npm start -- --no-watch to turn off)');
  // Exports and tenant jobs: their messages go to one folder that stands in for their queues,
  // each run here with the code the deployed worker runs (local/background.ts).
  const stopBackground = await startLocalBackground((line) => console.log(line));
  const stopSchedules = startSchedules((line) => console.log(line), { loadJob: bundleMode ? bundleMode.loadJob : loadCurrentJob });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    hotReload?.stop();
    stopSchedules();
    stopBackground();
    await stopWebhooks?.();
    server.closeAllConnections();
    server.close();
    clearRuntimeInfo(settings.dataDir, process.pid);
    await bundleMode?.runtime.stop();
    await passwordPool?.stop();
    await dynamo.stop();
    if (faults) console.log(faultSummary(faultCounts));
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
