import { config } from '../../lib/config';
import { jobs } from '../../lib/routes';
import type { LoadJob } from '../jobs';
import { ensureAssembly, readAssembly } from './assembly';
import { startBundleRuntime, type BundleRuntime } from './runner';

/**
 * `npm start -- --bundles`: the local API runs the synthesized bundles of cdk.out instead
 * of the sources, each function in workers of its own with its template environment, and
 * every DynamoDB call checked against its role's IAM statements (local/bundles/dynamo-proxy.ts).
 *
 * The template's values are kept, but for the ones that name the deployment rather than the
 * service: where it is served (PATH_PREFIX: the execute-api stage prefix, none locally), who
 * may call it (ALLOWED_ORIGINS), the app's address in e-mails (APP_URL), the tokens' issuer
 * and audience (JWT_ISSUER, JWT_AUDIENCE: the local key signs them, and in-process tests
 * sign theirs with the local values), the sender (MAIL_FROM) and the API keys taken
 * (API_KEY_ENVIRONMENT: `bo_test_` locally) and the webhook receivers allowed (WEBHOOK_ALLOW_LOOPBACK:
 * loopback ones locally). Those come from the local
 * configuration (local/environment.ts), as `npm start` uses them in source mode.
 */
export const DEPLOYMENT_VARIABLES = [
  'PATH_PREFIX',
  'ALLOWED_ORIGINS',
  'APP_URL',
  'JWT_ISSUER',
  'JWT_AUDIENCE',
  'MAIL_FROM',
  'API_KEY_ENVIRONMENT',
  'WEBHOOK_ALLOW_LOOPBACK',
] as const;

export interface BundleMode {
  runtime: BundleRuntime;
  /** The scheduled jobs' bundles, for local/scheduler.ts. */
  loadJob: LoadJob;
}

/** Synthesize when cdk.out is missing or stale, then start the functions' runtime on the local store. */
export async function startBundleMode(options: { dataDir: string; dynamoEndpoint: string; log: (line: string) => void }): Promise<BundleMode> {
  ensureAssembly({ log: options.log });
  const assembly = readAssembly();
  const local = config();
  const overrides = Object.fromEntries(
    DEPLOYMENT_VARIABLES.map((name) => [name, name === 'ALLOWED_ORIGINS' ? local.ALLOWED_ORIGINS.join(',') : String(local[name] ?? '')]),
  );
  const runtime = await startBundleRuntime({
    assembly,
    dynamoEndpoint: options.dynamoEndpoint,
    dataDir: options.dataDir,
    tableName: local.TABLE_NAME,
    overrides,
    log: options.log,
  });
  options.log(
    `Bundle mode: ${assembly.functions.size} functions from ${assembly.stackName} (cdk.out), each in its own workers with its template environment; DynamoDB calls checked against each role's IAM policy`,
  );

  // A job's function is `<JobId>Function` (infra/constructs/jobs.ts), found by its handler file.
  const loadJob: LoadJob = (job) => {
    const jobId = Object.entries(jobs).find(([, manifest]) => manifest.handler === job.handler)?.[0];
    if (!jobId) return Promise.reject(new Error(`${job.handler} is not a job of the manifest`));
    const functionId = `${jobId.charAt(0).toUpperCase()}${jobId.slice(1)}Function`;
    return Promise.resolve({ handler: (event) => runtime.invoke(functionId, event) });
  };
  return { runtime, loadJob };
}
