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
  /** The worker of a function (one per function, started on first use). */
  worker(functionId: string): FunctionWorker;
  /** The handler of a route's function, for the gateway: `route` is matched by method and resource path. */
  loadHandler(route: { method: string; path: string }): Promise<(event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>>;
  /** The authorizer (the one of the first protected route), for the gateway: throws `Error('Unauthorized')` as the handler does. */
  loadAuthorizer(): Promise<(event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>>;
  stop(): Promise<void>;
}

/** An invocation error as the in-process handler would have thrown it (the gateway reads its message). */
const asThrown = (error: unknown): Error => (error instanceof InvocationError ? Object.assign(new Error(error.errorMessage), { name: error.errorType }) : (error as Error));

export async function startBundleRuntime(options: BundleRuntimeOptions): Promise<BundleRuntime> {
  const { assembly } = options;
  const log = options.log ?? ((line: string) => console.error(line));
  const world: LocalWorld = { region: LOCAL_REGION, accountId: LOCAL_ACCOUNT, tableName: options.tableName, stackName: assembly.stackName };
  const keys = readLocalKeys(options.dataDir);
  const proxy = await startDynamoProxy({ target: options.dynamoEndpoint, ...assemblyCallers(assembly, world), log });
  const workers = new Map<string, FunctionWorker>();

  const environmentOf = (fn: AssemblyFunction) =>
    resolveFunctionEnvironment(assembly, fn, {
      world,
      dynamoEndpoint: proxy.endpoint,
      keys,
      outboxDir: join(options.dataDir, 'outbox'),
      ...(options.overrides ? { overrides: options.overrides } : {}),
    });

  const worker = (functionId: string): FunctionWorker => {
    let existing = workers.get(functionId);
    if (existing) return existing;
    const fn = assembly.functions.get(functionId);
    if (!fn) throw new Error(`No function ${functionId} in ${assembly.stackName}`);
    const { env, notes } = environmentOf(fn);
    for (const note of notes.filter((line) => line.includes('may not') || line.includes('no local value'))) log(`[bundles] ${functionId}: ${note}`);
    existing = startFunctionWorker(fn, env, options.functionLog ? { log: options.functionLog } : {});
    workers.set(functionId, existing);
    return existing;
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
    loadHandler: (route) => {
      const target = worker(routeFunction(route).functionId);
      return Promise.resolve((event, context) => target.invoke(event, { awsRequestId: context.awsRequestId }).catch((error: unknown) => Promise.reject(asThrown(error))) as Promise<APIGatewayProxyResult>);
    },
    loadAuthorizer: () => {
      const authorizerId = assembly.routes.find((route) => route.authorizerFunctionId)?.authorizerFunctionId;
      if (!authorizerId) return Promise.reject(new Error(`No method of ${assembly.stackName} has an authorizer`));
      const target = worker(authorizerId);
      return Promise.resolve((event) => target.invoke(event).catch((error: unknown) => Promise.reject(asThrown(error))) as Promise<APIGatewayAuthorizerResult>);
    },
    async stop() {
      await Promise.all([...workers.values()].map((running) => running.stop()));
      workers.clear();
      await proxy.stop();
    },
  };
}
