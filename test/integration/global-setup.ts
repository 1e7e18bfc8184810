import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalApi, type LocalApi } from '../../tools/local-api';
import { buildOpenApiDocument } from '../../tools/openapi/document';
import type { OpenApiDocument } from '../../tools/openapi/types';
import { verifySharedStore } from './store-verification';

/**
 * Starts the local API exactly as `npm start` does (emulator + DynamoDB Local), on free
 * ports, with an in-memory store and a temporary data folder, once for all integration
 * test files; and builds the OpenAPI document their responses are checked against, once.
 * At the end, `verify` checks every tenant the files left in the store (./store-verification).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    dataDir: string;
    allowedOrigin: string;
    /** The OpenAPI document every response is checked against (test/integration/api.ts). */
    openApiDocument: OpenApiDocument;
  }
}

export const ALLOWED_ORIGIN = 'https://app.example.com';

let api: LocalApi | undefined;
/** How the IAM proxy of bundle mode logs a denied call (local/bundles/dynamo-proxy.ts). */
const DENIAL_MARK = '[iam]';
const denials: string[] = [];
let pending = '';
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'backoffice-it-'));
  // INTEGRATION_BUNDLES=1 (npm run test:bundles): the same tests against the synthesized
  // bundles, IAM enforced. A call outside a function's grants is shown as it happens, and
  // fails the run at the end even if the test that made it did not notice the 500.
  const bundles = process.env.INTEGRATION_BUNDLES === '1';
  api = await startLocalApi({
    dataDir,
    inMemory: true,
    allowedOrigins: ALLOWED_ORIGIN,
    bundles,
    onOutput: (text) => {
      // Output comes in chunks: only whole lines are read.
      const lines = (pending + text).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines.filter((candidate) => candidate.includes(DENIAL_MARK))) {
        denials.push(line);
        console.error(line);
      }
    },
  });
  project.provide('apiUrl', api.url);
  project.provide('dataDir', dataDir);
  project.provide('allowedOrigin', ALLOWED_ORIGIN);
  project.provide('openApiDocument', buildOpenApiDocument());
}

export async function teardown(): Promise<void> {
  // Every tenant the files left behind, through verify, before the in-memory store goes.
  const verified = dataDir ? await verifySharedStore(dataDir).catch((error: unknown) => ({ error })) : undefined;
  await api?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (denials.length > 0) throw new Error(`${denials.length} DynamoDB call(s) outside a function's IAM grants:\n${denials.join('\n')}`);
  if (verified && 'error' in verified) throw verified.error;
  if (verified) {
    console.warn(`verify: ${verified.tenants} tenants of the shared store checked (${verified.skipped} with faults planted on purpose left out)`);
    if (verified.drift.length > 0)
      throw new Error(`verify found ${verified.drift.length} drift(s) in the shared store:\n${verified.drift.slice(0, 50).join('\n')}`);
  }
}
