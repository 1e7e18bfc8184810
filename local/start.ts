/**
 * `npm start`: the whole API on http://127.0.0.1:$PORT, locally, as it runs on AWS:
 * DynamoDB Local persisted under $DATA_DIR, the table created on first start from the
 * stack's own definition, and the API Gateway emulator running the same handlers and the
 * same authorizer.
 */
import { join } from 'node:path';
import { config } from '../lib/config';
import { routeList } from '../lib/routes';
import { withDocs } from './docs-server';
import { ensureTable, freePort, startDynamoLocal } from './dynamodb-local';
import { applyLocalEnvironment, localSettings } from './environment';
import { createGateway, createGatewayServer } from './gateway';
import { clearRuntimeInfo, loadAuthorizer, loadHandler, writeRuntimeInfo } from './runtime';
import { startSchedules } from './scheduler';

async function main(): Promise<void> {
  const settings = localSettings();
  const inMemory = process.env.DYNAMODB_IN_MEMORY === '1';
  const dynamoPort = settings.dynamoPort === 0 ? await freePort() : settings.dynamoPort;
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

  const gateway = createGateway({
    routes: routeList(),
    loadHandler,
    loadAuthorizer,
    allowedOrigins: ALLOWED_ORIGINS,
    log: (line) => console.log(line),
  });
  // GET /openapi.json and /docs (the reference page) in front of the API; the server answers
  // what Node's parser refuses (oversized or malformed requests) with the gateway's problems.
  const server = createGatewayServer(withDocs(gateway, { allowedOrigins: ALLOWED_ORIGINS, log: (line) => console.log(line) }), { allowedOrigins: ALLOWED_ORIGINS });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolveListen) => server.listen(settings.port, '127.0.0.1', resolveListen));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const apiUrl = `http://127.0.0.1:${port}`;
  writeRuntimeInfo(settings.dataDir, { pid: process.pid, dynamoEndpoint: dynamo.endpoint, apiUrl });

  console.log(`DynamoDB Local on ${dynamo.endpoint} (${inMemory ? 'in memory' : `data in ${settings.dataDir}`}), table ${TABLE_NAME} ${table}`);
  console.log(`API listening on ${apiUrl}`);
  console.log(`API reference on ${apiUrl}/docs (OpenAPI document: ${apiUrl}/openapi.json)`);
  const stopSchedules = startSchedules((line) => console.log(line));

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    stopSchedules();
    server.closeAllConnections();
    server.close();
    clearRuntimeInfo(settings.dataDir);
    await dynamo.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
