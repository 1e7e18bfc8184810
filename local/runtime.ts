import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Route } from '../lib/routes';
import { authorizer } from '../lib/routes';
import type { AuthorizerHandler, ProxyHandler } from './gateway';

/** The repository root, where the manifest's handler paths start. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const loaded = new Map<string, Promise<unknown>>();

async function loadExport<T>(file: string): Promise<T> {
  let module = loaded.get(file);
  if (!module) {
    module = import(pathToFileURL(join(repoRoot, file)).href);
    loaded.set(file, module);
  }
  const { handler } = (await module) as { handler?: T };
  if (typeof handler !== 'function') throw new Error(`${file} does not export a handler function`);
  return handler;
}

/** The same handler modules the stack bundles, imported in process (cold start on first use). */
export const loadHandler = (route: Route) => loadExport<ProxyHandler>(route.handler);
export const loadAuthorizer = () => loadExport<AuthorizerHandler>(authorizer.handler);

/** Where a running `npm start` announces its DynamoDB endpoint, for the other local commands. */
const runtimeFile = (dataDir: string) => join(dataDir, 'runtime.json');

export interface RuntimeInfo {
  pid: number;
  dynamoEndpoint: string;
  apiUrl: string;
}

export function writeRuntimeInfo(dataDir: string, info: RuntimeInfo): void {
  writeFileSync(runtimeFile(dataDir), JSON.stringify(info, null, 2));
}

export function readRuntimeInfo(dataDir: string): RuntimeInfo | undefined {
  const file = runtimeFile(dataDir);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as RuntimeInfo;
}

export function clearRuntimeInfo(dataDir: string): void {
  rmSync(runtimeFile(dataDir), { force: true });
}
