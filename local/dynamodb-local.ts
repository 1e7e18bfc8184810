import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, tableDefinition } from '../lib/db/table';

/**
 * DynamoDB Local, AWS's own emulator (it implements transactions, conditions and GSIs like
 * the service). Its jar ships inside the npm package `amplify-dynamodb-simulator`; we run
 * it directly with the machine's Java.
 *
 * It listens on 127.0.0.1 only: the jar has no bind option (`-help`; its Jetty server listens
 * on every interface), so it is started through local/DynamoDBLocalOnLoopback.java, which
 * builds the jar's own server and binds it to the loopback address. The launcher is compiled
 * once, with the Java compiler module (no `javac` needed; Debian's and Ubuntu's Java runtime
 * packages have it), into node_modules/.cache; without that module the plain jar runs, with
 * a warning. Telemetry is off (`-disableTelemetry`). Its CORS default sends no
 * Access-Control-Allow-Origin, so a web page cannot call it from a browser either.
 */

export interface DynamoLocal {
  endpoint: string;
  stop(): Promise<void>;
}

function emulatorDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

const LOOPBACK_LAUNCHER = fileURLToPath(new URL('DynamoDBLocalOnLoopback.java', import.meta.url));
const LAUNCHER_CACHE = fileURLToPath(new URL('../node_modules/.cache/dynamodb-local-loopback', import.meta.url));

let javaCanCompile: boolean | undefined;

/**
 * Fails with an actionable message when Java is missing; true when this Java can compile the
 * loopback launcher (it has the `jdk.compiler` module).
 */
export function assertJava(): boolean {
  if (javaCanCompile !== undefined) return javaCanCompile;
  const probe = spawnSync('java', ['--list-modules'], { encoding: 'utf8' });
  if (probe.error) {
    throw new Error(
      'Java is required to run DynamoDB Local but `java` was not found.\n' +
        'Install a Java runtime, e.g. on Debian/Ubuntu: sudo apt-get install -y default-jre-headless',
    );
  }
  javaCanCompile = probe.status === 0 && /^jdk\.compiler@/m.test(probe.stdout);
  return javaCanCompile;
}

/**
 * The folder holding the compiled launcher (compiled on first use, about 2 s, then kept per
 * source and jar), or undefined when this Java cannot compile it.
 */
function compiledLauncher(emulator: string): string | undefined {
  const jar = join(emulator, 'DynamoDBLocal.jar');
  // The jar's identity: the checksum file the package ships beside it (dynamodb-local-metadata.json
  // is not one: DynamoDB Local writes it on its first run, with a random installation id).
  const checksum = join(emulator, 'sha256');
  const version = existsSync(checksum) ? readFileSync(checksum) : String(statSync(jar).size);
  const key = createHash('sha256').update(readFileSync(LOOPBACK_LAUNCHER)).update(version).digest('hex').slice(0, 16);
  const folder = join(LAUNCHER_CACHE, key);
  if (existsSync(join(folder, 'DynamoDBLocalOnLoopback.class'))) return folder;
  const building = `${folder}.${process.pid}`;
  const compiled = spawnSync('java', ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '-d', building, '-cp', jar, LOOPBACK_LAUNCHER], { encoding: 'utf8' });
  if (compiled.status !== 0) {
    rmSync(building, { recursive: true, force: true });
    console.warn(`Could not compile ${LOOPBACK_LAUNCHER}:\n${compiled.stderr}`);
    return undefined;
  }
  try {
    renameSync(building, folder);
  } catch {
    // Another process compiled it at the same time: theirs is the same.
    rmSync(building, { recursive: true, force: true });
  }
  return folder;
}

/** True when nothing listens on `port` of the loopback interface (nor on every interface). */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolveFree) => {
    const server = createServer();
    server.once('error', () => resolveFree(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolveFree(true)));
  });
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
  const cwd = emulatorDirectory();
  const launcher = assertJava() ? compiledLauncher(cwd) : undefined;
  if (!launcher)
    console.warn(`This Java cannot compile ${LOOPBACK_LAUNCHER} (no jdk.compiler module): DynamoDB Local listens on every interface, port ${options.port}.`);
  const main = launcher ? ['-cp', ['DynamoDBLocal.jar', launcher].join(delimiter), 'DynamoDBLocalOnLoopback'] : ['-jar', 'DynamoDBLocal.jar'];
  const args = [
    '-Xms64m',
    `-Xmx${process.env.DYNAMODB_HEAP ?? '2g'}`,
    '-Djava.library.path=./DynamoDBLocal_lib',
    ...main,
    '-port',
    String(options.port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (options.dbPath) {
    mkdirSync(options.dbPath, { recursive: true });
    args.push('-dbPath', options.dbPath);
  } else {
    args.push('-inMemory');
  }
  // The launcher exits when its stdin closes, so it never outlives this process.
  const child = spawn('java', args, { cwd, stdio: [launcher ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
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
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      // A table created before it had a stream (the webhooks' delivery reads it) gets one now.
      if (!Table?.StreamSpecification?.StreamEnabled) {
        await client.send(
          new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.stream } }),
        );
      }
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
