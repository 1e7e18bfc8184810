import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Route } from '../lib/routes';
import { authorizer } from '../lib/routes';
import type { AuthorizerHandler, ProxyHandler } from './gateway';
import type { JobModule } from './jobs';

/** The repository root, where the manifest's handler paths start. */
export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The query that marks a module of a hot-reload generation (local/hot-reload.ts). */
export const GENERATION_QUERY = 'generation';

/** 0 until the first reload: the plain URLs, one module graph with this process. */
let generation = 0;
const loaded = new Map<string, Promise<unknown>>();

function importModule(file: string): Promise<unknown> {
  let module = loaded.get(file);
  if (!module) {
    const url = pathToFileURL(join(repoRoot, file));
    if (generation > 0) url.searchParams.set(GENERATION_QUERY, String(generation));
    module = import(url.href);
    loaded.set(file, module);
  }
  return module;
}

async function loadExport<T>(file: string): Promise<T> {
  const { handler } = (await importModule(file)) as { handler?: T };
  if (typeof handler !== 'function') throw new Error(`${file} does not export a handler function`);
  return handler;
}

/** The same handler modules the stack bundles, imported in process (cold start on first use). */
export const loadHandler = (route: Route) => loadExport<ProxyHandler>(route.handler);
export const loadAuthorizer = () => loadExport<AuthorizerHandler>(authorizer.handler);

/** A scheduled job's module, of the current generation (what `startSchedules` runs). */
export const loadCurrentJob = async (job: { handler: string }): Promise<JobModule> => {
  const module = (await importModule(job.handler)) as Partial<JobModule>;
  if (typeof module.handler !== 'function') throw new Error(`${job.handler} does not export a handler function`);
  return module as JobModule;
};

/** The line of an import error that says what is wrong (esbuild's comes second, after "Transform failed…:"). */
function firstLine(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n').filter((line) => line.trim() !== '');
  const line = (lines[0]?.endsWith(':') ? lines[1] : lines[0]) ?? 'unknown error';
  return line.replace(repoRoot, '');
}

/**
 * Start a new generation: every module loaded so far is dropped, and the next load imports
 * it afresh (local/hot-reload.ts). `reimport` loads again what was loaded, so that a broken
 * file shows at once; each outcome names the file and, when it failed, the error message.
 */
export function nextGeneration(): { generation: number; reimport: () => Promise<{ file: string; error?: string }[]> } {
  const files = [...loaded.keys()];
  loaded.clear();
  generation += 1;
  return {
    generation,
    reimport: () =>
      Promise.all(
        files.map((file) =>
          loadExport<unknown>(file).then(
            () => ({ file }),
            // The failed import stays loaded: its route fails until the next generation.
            (error: unknown) => ({ file, error: firstLine(error) }),
          ),
        ),
      ),
  };
}

/** Where a running `npm start` announces its DynamoDB endpoint, for the other local commands. */
const runtimeFile = (dataDir: string) => join(dataDir, 'runtime.json');

export interface RuntimeInfo {
  pid: number;
  dynamoEndpoint: string;
  apiUrl: string;
}

/** Written whole (a reader never sees half a file). */
export function writeRuntimeInfo(dataDir: string, info: RuntimeInfo): void {
  const file = runtimeFile(dataDir);
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(info, null, 2));
  renameSync(`${file}.${process.pid}`, file);
}

/** True while process `pid` exists (EPERM: it exists, owned by another user). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What `$DATA_DIR/runtime.json` says: an `npm start` running on that folder, a stale file
 * (its process is gone, e.g. killed with SIGKILL, or the file is unreadable), or none.
 */
export type RuntimeState = { kind: 'running'; info: RuntimeInfo } | { kind: 'stale'; pid: number | undefined } | { kind: 'none' };

export function runtimeState(dataDir: string): RuntimeState {
  const file = runtimeFile(dataDir);
  if (!existsSync(file)) return { kind: 'none' };
  let info: Partial<RuntimeInfo>;
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as Partial<RuntimeInfo>;
  } catch {
    return { kind: 'stale', pid: undefined };
  }
  const { pid, dynamoEndpoint, apiUrl } = info;
  if (typeof pid !== 'number' || typeof dynamoEndpoint !== 'string' || typeof apiUrl !== 'string' || !isProcessAlive(pid)) return { kind: 'stale', pid };
  return { kind: 'running', info: { pid, dynamoEndpoint, apiUrl } };
}

/** The running `npm start` on `dataDir`, if any (a stale file counts as none). */
export function readRuntimeInfo(dataDir: string): RuntimeInfo | undefined {
  const state = runtimeState(dataDir);
  return state.kind === 'running' ? state.info : undefined;
}

/** Remove the file; `pid` given, only when it is that process's. */
export function clearRuntimeInfo(dataDir: string, pid?: number): void {
  if (pid !== undefined) {
    const state = runtimeState(dataDir);
    if (state.kind === 'running' && state.info.pid !== pid) return;
  }
  rmSync(runtimeFile(dataDir), { force: true });
}
