import { join } from 'node:path';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import type { AssemblyFunction, CloudAssembly } from './assembly';
import { assemblyCallers, startDynamoProxy, type DynamoProxy } from './dynamo-proxy';
import { LOCAL_ACCOUNT, LOCAL_REGION, readLocalKeys, resolveFunctionEnvironment, type BundleEnvironment, type LocalWorld } from './environment';
import { InvocationError, startFunctionWorker, type FunctionWorker, type FunctionWorkerOptions } from './worker';

/**
 * The synthesized functions of an assembly, ready to invoke locally: the IAM proxy in front
 * of the local DynamoDB, and one worker per function (started on first use) with its
 * resolved template environment. `npm run invoke` uses it for one function; the local API
 * in bundle mode can use `loadHandler` / `loadAuthorizer` as the gateway's loaders
 * (local/gateway.ts `GatewayOptions`).
 */

export interface BundleRuntimeOptions {
  assembly: CloudAssembly;
  /** DynamoDB Local's own endpoint; the functions reach it through the IAM proxy. */
  dynamoEndpoint: string;
  dataDir: string;
  /** The local table (TABLE_NAME of npm start). */
  tableName: string;
  /** Plain template values to replace for every function (see BundleEnvironmentOptions.overrides). */
  overrides?: Record<string, string>;
  /** Proxy denials and notes. */
  log?: (line: string) => void;
  /** The functions' own stdout and stderr. */
  functionLog?: FunctionWorkerOptions['log'];
}

export interface BundleRuntime {
  assembly: CloudAssembly;
  world: LocalWorld;
  proxy: DynamoProxy;
  environmentOf(fn: AssemblyFunction): BundleEnvironment;
  /** The first worker of a function (started on first use): what `npm run invoke` runs. */
  worker(functionId: string): FunctionWorker;
  /**
   * Invoke a function as Lambda scales it: on an idle worker if one is free, else on a new
   * one (a cold start), up to MAX_WORKERS_PER_FUNCTION, then queued on the least busy.
   */
  invoke(functionId: string, event: unknown, awsRequestId?: string): Promise<unknown>;
  /** The handler of a route's function, for the gateway: `route` is matched by method and resource path. */
  loadHandler: (route: { method: string; path: string }) => Promise<(event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>>;
  /** The authorizer (the one of the first protected route), for the gateway: throws `Error('Unauthorized')` as the handler does. */
  loadAuthorizer: () => Promise<(event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>>;
  stop(): Promise<void>;
}

/**
 * Concurrent invocations of one function that get their own worker (execution environment)
 * before they queue: enough for the tests' parallel requests to run in parallel, few enough
 * that a burst does not start dozens of isolates on a laptop.
 */
export const MAX_WORKERS_PER_FUNCTION = 4;

/** An invocation error as the in-process handler would have thrown it (the gateway reads its message). */
const asThrown = (error: unknown): Error =>
  error instanceof InvocationError ? Object.assign(new Error(error.errorMessage), { name: error.errorType }) : (error as Error);

export async function startBundleRuntime(options: BundleRuntimeOptions): Promise<BundleRuntime> {
  const { assembly } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const world: LocalWorld = { region: LOCAL_REGION, accountId: LOCAL_ACCOUNT, tableName: options.tableName, stackName: assembly.stackName };
  const keys = readLocalKeys(options.dataDir);
  const proxy = await startDynamoProxy({ target: options.dynamoEndpoint, ...assemblyCallers(assembly, world), log });
  const pools = new Map<string, { worker: FunctionWorker; inFlight: number }[]>();

  const environmentOf = (fn: AssemblyFunction) =>
    resolveFunctionEnvironment(assembly, fn, {
      world,
      dynamoEndpoint: proxy.endpoint,
      keys,
      outboxDir: join(options.dataDir, 'outbox'),
      // npm start's upload links (local/environment.ts sets both before the bundles start).
      ...(process.env.IMPORT_UPLOAD_SECRET && process.env.IMPORT_UPLOAD_DIR
        ? { importUploads: { secret: process.env.IMPORT_UPLOAD_SECRET, directory: process.env.IMPORT_UPLOAD_DIR } }
        : {}),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });

  const start = (functionId: string) => {
    const fn = assembly.functions.get(functionId);
    if (!fn) throw new Error(`No function ${functionId} in ${assembly.stackName}`);
    const { env, notes } = environmentOf(fn);
    const pool = pools.get(functionId) ?? [];
    if (pool.length === 0)
      for (const note of notes.filter((line) => line.includes('may not') || line.includes('no local value'))) log(`[bundles] ${functionId}: ${note}`);
    const slot = { worker: startFunctionWorker(fn, env, options.functionLog ? { log: options.functionLog } : {}), inFlight: 0 };
    pools.set(functionId, [...pool, slot]);
    return slot;
  };

  const worker = (functionId: string): FunctionWorker => (pools.get(functionId)?.[0] ?? start(functionId)).worker;

  const invoke = async (functionId: string, event: unknown, awsRequestId?: string): Promise<unknown> => {
    const pool = pools.get(functionId) ?? [];
    const slot =
      pool.find((candidate) => candidate.inFlight === 0) ??
      (pool.length < MAX_WORKERS_PER_FUNCTION
        ? start(functionId)
        : pool.reduce((least, candidate) => (candidate.inFlight < least.inFlight ? candidate : least)));
    slot.inFlight += 1;
    try {
      return await slot.worker.invoke(event, awsRequestId === undefined ? {} : { awsRequestId });
    } catch (error) {
      throw asThrown(error);
    } finally {
      slot.inFlight -= 1;
    }
  };

  const routeFunction = (route: { method: string; path: string }) => {
    const found = assembly.routes.find((candidate) => candidate.method === route.method && candidate.path === route.path);
    if (!found) throw new Error(`No function serves ${route.method} ${route.path} in ${assembly.stackName}`);
    return found;
  };

  return {
    assembly,
    world,
    proxy,
    environmentOf,
    worker,
    invoke,
    loadHandler: (route) => {
      const { functionId } = routeFunction(route);
      return Promise.resolve((event, context) => invoke(functionId, event, context.awsRequestId) as Promise<APIGatewayProxyResult>);
    },
    loadAuthorizer: () => {
      const authorizerId = assembly.routes.find((route) => route.authorizerFunctionId)?.authorizerFunctionId;
      if (!authorizerId) return Promise.reject(new Error(`No method of ${assembly.stackName} has an authorizer`));
      return Promise.resolve((event) => invoke(authorizerId, event) as Promise<APIGatewayAuthorizerResult>);
    },
    async stop() {
      await Promise.all([...pools.values()].flat().map((slot) => slot.worker.stop()));
      pools.clear();
      await proxy.stop();
    },
  };
}
