import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { LAMBDA_ESBUILD } from '../../infra/bundling';
import { repoRoot } from '../../infra/paths';

const run = promisify(execFile);

interface Bundle {
  /** The source files with code in the bundle (esbuild also lists those it read and shook out). */
  inputs: string[];
  /** The imports the bundle leaves to the runtime (esbuild's metafile: external ones only). */
  imports: string[];
  text: string;
}

type Overrides = Pick<BuildOptions, 'dropLabels' | 'alias'>;

/** One function's bundle, as deployed (infra/bundling.ts), optionally with some options changed. */
async function bundleOf(entry: string, overrides: Overrides = {}): Promise<Bundle> {
  const result = await build({ ...LAMBDA_ESBUILD, ...overrides, entryPoints: [entry], outfile: 'bundle.mjs', write: false, metafile: true });
  const metafile: Metafile = result.metafile;
  const [output] = Object.values(metafile.outputs);
  return {
    inputs: Object.entries(output?.inputs ?? {})
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([file]) => file),
    imports: (output?.imports ?? []).map((imported) => imported.path),
    text: result.outputFiles[0]?.text ?? '',
  };
}

async function bundledInputs(entry: string, overrides: Overrides = {}): Promise<string[]> {
  return (await bundleOf(entry, overrides)).inputs;
}

const CLASSIC_ZOD = /^node_modules\/zod\/v4\/classic\//;
/** An import of an SDK package left in the output: `from"@aws-sdk/…"`, `import("@smithy/…")`, `require("@aws-sdk/…")`. */
const SDK_IMPORT_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'`]@(?:aws-sdk|smithy)\//;
const SES = 'node_modules/@aws-sdk/client-ses/';
const SECRETS_MANAGER = 'node_modules/@aws-sdk/client-secrets-manager/';
/** The default credential chain's package and everything only its links (beyond the environment) bring. */
const FULL_CREDENTIAL_CHAIN = [
  'node_modules/@aws-sdk/credential-provider-node/',
  'node_modules/@aws-sdk/credential-provider-ini/',
  'node_modules/@aws-sdk/credential-provider-sso/',
  'node_modules/@aws-sdk/credential-provider-process/',
  'node_modules/@aws-sdk/credential-provider-web-identity/',
  'node_modules/@aws-sdk/credential-provider-http/',
  'node_modules/@aws-sdk/credential-provider-login/',
  'node_modules/@aws-sdk/nested-clients/',
  'node_modules/@aws-sdk/token-providers/',
  'node_modules/@smithy/credential-provider-imds/',
];
const under = (inputs: string[], prefixes: string[]) => inputs.filter((input) => prefixes.some((prefix) => input.startsWith(prefix)));

describe('the function bundles', () => {
  it("leave each route's ROUTE_DOCS out, and with them the view schemas only the docs import", async () => {
    const inputs = await bundledInputs('functions/auth/me.ts');

    expect(inputs).toContain('functions/auth/me.ts');
    expect(inputs).toContain('lib/auth/sessions.ts');
    expect(inputs).not.toContain('lib/auth/schemas.ts');
    expect(inputs).not.toContain('lib/http/route-docs.ts');
    expect(inputs.filter((input) => CLASSIC_ZOD.test(input))).toEqual([]);
  });

  it('would hold them without the dropped label (what the rule above guards against)', async () => {
    const inputs = await bundledInputs('functions/auth/me.ts', { dropLabels: [] });

    expect(inputs).toContain('lib/auth/schemas.ts');
    expect(inputs).toContain('lib/http/route-docs.ts');
    expect(inputs.some((input) => CLASSIC_ZOD.test(input))).toBe(true);
  });

  it('keep what a handler validates with: a body schema stays in', async () => {
    const inputs = await bundledInputs('functions/inventory/create-movement.ts');

    expect(inputs).toContain('lib/inventory/schemas.ts');
    expect(inputs).not.toContain('lib/http/route-docs.ts');
  });
});

describe('the AWS SDK in the bundles', () => {
  it('is inside the bundle, from its ESM builds: nothing is left for the runtime to load', async () => {
    const { inputs, imports, text } = await bundleOf('functions/auth/me.ts');

    expect(inputs).toContain('node_modules/@aws-sdk/client-dynamodb/dist-es/DynamoDBClient.js');
    expect(inputs).toContain('node_modules/@aws-sdk/lib-dynamodb/dist-es/DynamoDBDocumentClient.js');
    expect(inputs.filter((input) => /^node_modules\/@(aws-sdk|smithy)\/[^/]+\/dist-cjs\//.test(input))).toEqual([]);
    expect(imports.filter((path) => /^@(aws-sdk|smithy)\//.test(path))).toEqual([]);
    expect(text).not.toMatch(SDK_IMPORT_SPECIFIER);
  });

  it('holds neither the SES nor the Secrets Manager client in a function that sends no mail and reads no key', async () => {
    const inputs = await bundledInputs('functions/auth/me.ts');

    expect(under(inputs, [SES, SECRETS_MANAGER])).toEqual([]);
  });

  it('holds in a function that sends mail the SES client and the one command it sends, not the rest of SES', async () => {
    const inputs = await bundledInputs('functions/auth/forgot-password.ts');

    expect(inputs).toContain(`${SES}dist-es/SESClient.js`);
    expect(inputs).toContain(`${SES}dist-es/commands/SendEmailCommand.js`);
    expect(inputs).not.toContain(`${SES}dist-es/SES.js`);
    expect(under(inputs, [`${SES}dist-es/commands/`])).toEqual([`${SES}dist-es/commands/SendEmailCommand.js`]);
    expect(under(inputs, [SECRETS_MANAGER])).toEqual([]);
  });

  it('holds in the function that sends attachments (a purchase order) SendRawEmail alone', async () => {
    const inputs = await bundledInputs('functions/purchase-orders/send-purchase-order.ts');

    expect(under(inputs, [`${SES}dist-es/commands/`])).toEqual([`${SES}dist-es/commands/SendRawEmailCommand.js`]);
    expect(inputs).not.toContain(`${SES}dist-es/SES.js`);
  });

  it('holds in a function that reads a key the Secrets Manager client and GetSecretValue alone', async () => {
    const inputs = await bundledInputs('functions/auth/login.ts');

    expect(inputs).toContain(`${SECRETS_MANAGER}dist-es/SecretsManagerClient.js`);
    expect(under(inputs, [`${SECRETS_MANAGER}dist-es/commands/`])).toEqual([`${SECRETS_MANAGER}dist-es/commands/GetSecretValueCommand.js`]);
    expect(inputs).not.toContain(`${SECRETS_MANAGER}dist-es/SecretsManager.js`);
    expect(under(inputs, [SES])).toEqual([]);
  });

  it('takes credentials from the environment alone: the default chain is replaced by lib/aws/env-credentials.ts', async () => {
    const inputs = await bundledInputs('functions/auth/me.ts');

    expect(inputs).toContain('lib/aws/env-credentials.ts');
    expect(inputs).toContain('node_modules/@aws-sdk/credential-provider-env/dist-es/fromEnv.js');
    expect(under(inputs, FULL_CREDENTIAL_CHAIN)).toEqual([]);
  });

  it('would hold the whole default chain without the alias (what the rule above guards against)', async () => {
    const inputs = await bundledInputs('functions/auth/me.ts', { alias: {} });

    expect(inputs).not.toContain('lib/aws/env-credentials.ts');
    expect(under(inputs, ['node_modules/@aws-sdk/credential-provider-node/'])).not.toEqual([]);
    expect(under(inputs, ['node_modules/@aws-sdk/credential-provider-ini/'])).not.toEqual([]);
  });
});

describe('a bundled client, run with node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'backoffice-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Bundles `source` (resolved from the repository root) as the functions are bundled and runs it in a fresh Node process. */
  async function runBundled(name: string, source: string, env: Record<string, string>): Promise<string> {
    const result = await build({
      ...LAMBDA_ESBUILD,
      stdin: { contents: source, resolveDir: repoRoot, loader: 'ts', sourcefile: `${name}.ts` },
      outfile: join(dir, `${name}.mjs`),
      write: false,
    });
    const file = join(dir, `${name}.mjs`);
    writeFileSync(file, result.outputFiles[0]?.text ?? '');
    // Only what the case sets: no credentials, profile or config file of the machine running the tests.
    const { stdout } = await run(process.execPath, [file], { env: { PATH: process.env.PATH ?? '', HOME: dir, AWS_REGION: 'us-east-1', ...env } });
    return stdout;
  }

  const CREDENTIALS = `
    import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
    const client = new DynamoDBClient({});
    try {
      const credentials = await client.config.credentials();
      console.log(JSON.stringify({ accessKeyId: credentials.accessKeyId, sessionToken: credentials.sessionToken }));
    } catch (error) {
      console.log(JSON.stringify({ error: error.name }));
    }
  `;

  it("signs with the environment's credentials, as Lambda sets them", async () => {
    const stdout = await runBundled('env-credentials', CREDENTIALS, {
      AWS_ACCESS_KEY_ID: 'AKIDLAMBDA',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'token',
    });

    expect(JSON.parse(stdout)).toEqual({ accessKeyId: 'AKIDLAMBDA', sessionToken: 'token' });
  });

  it('looks nowhere else: with a profile and a credentials file but no variables, it fails', async () => {
    writeFileSync(join(dir, 'credentials'), '[other]\naws_access_key_id = AKIDFROMFILE\naws_secret_access_key = secret\n');
    const stdout = await runBundled('no-env-credentials', CREDENTIALS, { AWS_PROFILE: 'other', AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials') });

    expect(JSON.parse(stdout)).toEqual({ error: 'CredentialsProviderError' });
  });

  it('imports GET /auth/me as deployed, with its handler', async () => {
    const stdout = await runBundled('me', "import { handler } from './functions/auth/me';\nconsole.log(typeof handler);", {});

    expect(stdout.trim()).toBe('function');
  });
});
