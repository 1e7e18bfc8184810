import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalApi, type LocalApi } from '../../tools/local-api';

/**
 * Starts the local API exactly as `npm start` does (emulator + DynamoDB Local), on free
 * ports, with an in-memory store and a temporary data folder, once for all integration
 * test files.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dataDir: string;
    allowedOrigin: string;
  }
}

export const ALLOWED_ORIGIN = 'https://app.example.com';

let api: LocalApi | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'backoffice-it-'));
  api = await startLocalApi({ dataDir, inMemory: true, allowedOrigins: ALLOWED_ORIGIN });
  project.provide('apiUrl', api.url);
  project.provide('dataDir', dataDir);
  project.provide('allowedOrigin', ALLOWED_ORIGIN);
}

export async function teardown(): Promise<void> {
  await api?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
