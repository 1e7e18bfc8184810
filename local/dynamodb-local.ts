import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { createTableInput, tableDefinition } from '../lib/db/table';

/**
 * DynamoDB Local, AWS's own emulator (it implements transactions, conditions and GSIs like
 * the service). Its jar ships inside the npm package `amplify-dynamodb-simulator`; we run
 * it directly with the machine's Java.
 */

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}

function emulatorDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

/** Fails with an actionable message when Java is missing. */
export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error) {
    throw new Error(
      'Java is required to run DynamoDB Local but `java` was not found.\n' +
        'Install a Java runtime, e.g. on Debian/Ubuntu: sudo apt-get install -y default-jre-headless',
    );
  }
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export function localDynamoClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/** True when a DynamoDB endpoint answers. */
export async function isReachable(endpoint: string): Promise<boolean> {
  const client = localDynamoClient(endpoint);
  try {
    await client.send(new ListTablesCommand({ Limit: 1 }), { abortSignal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  } finally {
    client.destroy();
  }
}

async function waitUntilReachable(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}:\n${output()}`);
    if (await isReachable(endpoint)) return;
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
  throw new Error(`DynamoDB Local did not answer on ${endpoint} within 30 s:\n${output()}`);
}

/**
 * Start DynamoDB Local on `port`: persisted under `dbPath` (one shared database file), or in
 * memory when `dbPath` is undefined (tests).
 */
export async function startDynamoLocal(options: { port: number; dbPath?: string }): Promise<DynamoLocal> {
  assertJava();
  const cwd = emulatorDirectory();
  const args = ['-Xms64m', `-Xmx${process.env.DYNAMODB_HEAP ?? '2g'}`, '-Djava.library.path=./DynamoDBLocal_lib', '-jar', 'DynamoDBLocal.jar', '-port', String(options.port), '-sharedDb'];
  if (options.dbPath) {
    mkdirSync(options.dbPath, { recursive: true });
    args.push('-dbPath', options.dbPath);
  } else {
    args.push('-inMemory');
  }
  const child = spawn('java', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const endpoint = `http://127.0.0.1:${options.port}`;
  try {
    await waitUntilReachable(endpoint, child, () => log);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint,
    stop: () =>
      new Promise<void>((resolveStop) => {
        if (child.exitCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

/** Create the table from the shared definition when it does not exist yet (first start). */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'exists'> {
  const client = localDynamoClient(endpoint);
  try {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return 'exists';
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true } }),
    );
    return 'created';
  } finally {
    client.destroy();
  }
}
