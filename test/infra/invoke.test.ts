import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetKeys } from '../../lib/auth/keys';
import { resetConfig } from '../../lib/config';
import { ensureAssembly, readAssembly, type CloudAssembly, type Template, type TemplateValue } from '../../local/bundles/assembly';
import { startBundleRuntime, type BundleRuntime } from '../../local/bundles/runner';
import { startFunctionWorker } from '../../local/bundles/worker';
import { authorize, sessionCookieHeader, withCookie } from '../../local/bundles/session';
import { ensureTable, freePort, startDynamoLocal, type DynamoLocal } from '../../local/dynamodb-local';
import { applyLocalEnvironment } from '../../local/environment';
import { repoRoot, writeRuntimeInfo } from '../../local/runtime';
import { sharedAssembly } from './synth';

/**
 * The synthesized bundles run locally: the run's assembly of the app, DynamoDB Local in
 * memory, and each function in its worker with its template environment and its grants
 * enforced by the IAM proxy.
 */

const EMAIL = 'ana@example.com';
const PASSWORD = 'correct horse battery';
const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/backoffice';
const parentEnv = { ...process.env };
/** `npx cdk synth` bundles every function (an npx esbuild each): about a minute on an idle machine, three on a busy one. */
const SYNTH_TIMEOUT_MS = 300_000;
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

let assemblyDir: string;
let dataDir: string;
let dynamo: DynamoLocal;
let assembly: CloudAssembly;
let runtime: BundleRuntime;
/** Ana's tenant, signed up in beforeAll. */
let tenantId: string;
const functionLogs: string[] = [];

function sampleEvent(name: string, body?: object): APIGatewayProxyEvent {
  const event = JSON.parse(readFileSync(path.join(repoRoot, 'events', `${name}.json`), 'utf8')) as APIGatewayProxyEvent;
  return body === undefined ? event : { ...event, body: JSON.stringify(body) };
}

const bodyOf = (result: APIGatewayProxyResult) => JSON.parse(result.body) as Record<string, unknown>;

/** The token of the invitation the bundles mailed to `address` (the link's `token`), read from the runtime's outbox. */
function mailedInvitationToken(address: string): string {
  const directory = path.join(dataDir, 'outbox');
  const tokens = readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as { to: string; text: string })
    .filter((message) => message.to === address)
    .map((message) => /https?:\/\/\S+/.exec(message.text)?.[0])
    .map((link) => (link ? new URL(link).searchParams.get('token') : null));
  const token = tokens.at(-1);
  if (!token) throw new Error(`no invitation e-mail to ${address} in ${directory}`);
  return token;
}

async function startRuntime(forAssembly: CloudAssembly, log: (line: string) => void = () => undefined): Promise<BundleRuntime> {
  return startBundleRuntime({
    assembly: forAssembly,
    dynamoEndpoint: dynamo.endpoint,
    dataDir,
    tableName: 'backoffice',
    log,
    functionLog: (chunk) => functionLogs.push(chunk),
  });
}

/** A copy of the template where `edit` changed the resources. */
function editedTemplate(edit: (resources: Template['Resources']) => void): Template {
  const template = structuredClone(assembly.template);
  edit(template.Resources);
  return template;
}

beforeAll(async () => {
  // The run's one `npx cdk synth` (test/infra/global-setup.ts), which ensureAssembly finds current.
  assemblyDir = await sharedAssembly();
  expect(ensureAssembly({ dir: assemblyDir, log: () => undefined })).toBe(false);
  dataDir = mkdtempSync(path.join(tmpdir(), 'backoffice-invoke-'));
  assembly = readAssembly({ dir: assemblyDir });

  dynamo = await startDynamoLocal({ port: await freePort() });
  await ensureTable(dynamo.endpoint, 'backoffice');
  // This process makes sessions for --as: its tokens carry the template's issuer and audience.
  const authorizerEnvironment = assembly.functions.get('AuthorizerFunction')?.environment ?? {};
  Object.assign(process.env, { JWT_ISSUER: authorizerEnvironment.JWT_ISSUER, JWT_AUDIENCE: authorizerEnvironment.JWT_AUDIENCE, DATA_DIR: dataDir });
  await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, dynamo.endpoint);
  resetConfig();
  resetKeys();
  runtime = await startRuntime(assembly);

  // A tenant and its administrator, made by the bundles themselves: the sign-up mails its
  // administrator (the sample's adminEmail, Ana) an invitation, whose token opens the base account.
  const signUp = sampleEvent('create-tenant');
  expect(JSON.parse(signUp.body ?? '{}')).toMatchObject({ adminEmail: EMAIL });
  const tenant = (await runtime.worker('CreateTenantFunction').invoke(signUp)) as APIGatewayProxyResult;
  expect(tenant.statusCode).toBe(201);
  tenantId = String(bodyOf(tenant).id);
  const invitationToken = mailedInvitationToken(EMAIL);
  const registered = (await runtime
    .worker('RegisterFunction')
    .invoke(sampleEvent('register', { name: 'Ana Souza', email: EMAIL, password: PASSWORD, tenantId, invitationToken }))) as APIGatewayProxyResult;
  expect(registered.statusCode).toBe(200);
}, SYNTH_TIMEOUT_MS);

afterAll(async () => {
  await runtime?.stop();
  await dynamo?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run invoke: the synthesized bundles with their template environment', () => {
  it('finds every function of the template with its bundle, and the routes from the API methods', () => {
    const login = assembly.functions.get('LoginFunction');
    expect(login).toMatchObject({
      logicalId: 'LoginFunction',
      handler: 'index.handler',
      exportName: 'handler',
      memoryMB: 1769,
      timeoutSeconds: 10,
      runtime: 'nodejs22.x',
    });
    expect(login?.entryFile).toBe(path.join(login?.assetDir ?? '', 'index.mjs'));
    expect(assembly.routes).toContainEqual({ method: 'POST', path: '/auth/login', functionId: 'LoginFunction' });
    expect(assembly.routes).toContainEqual({ method: 'GET', path: '/auth/me', functionId: 'MeFunction', authorizerFunctionId: 'AuthorizerFunction' });
  });

  it('resolves the template environment: local stand-ins for AWS resources, every plain value as the template has it, nothing added', () => {
    const login = assembly.functions.get('LoginFunction');
    if (!login) throw new Error('no LoginFunction');
    const { env } = runtime.environmentOf(login);
    const template = login.environment;

    expect(env).toMatchObject({
      TABLE_NAME: 'backoffice',
      JWT_ISSUER: template.JWT_ISSUER,
      JWT_AUDIENCE: template.JWT_AUDIENCE,
      PATH_PREFIX: template.PATH_PREFIX,
      // The console's distribution has no local stand-in: its domain stays a placeholder of the attribute.
      ALLOWED_ORIGINS: expect.stringMatching(/^https:\/\/Console\w+\.DomainName,/) as unknown,
      MAIL_TRANSPORT: 'outbox',
      DYNAMODB_ENDPOINT: runtime.proxy.endpoint,
      AWS_ACCESS_KEY_ID: 'LoginFunction',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1769',
    });
    expect(JSON.parse(env.JWT_SIGNING_KEY ?? '{}')).toMatchObject({ kty: 'EC', crv: 'P-256' });
    expect(env.JWT_SIGNING_KEY_SECRET_ID).toBeUndefined();
    // Login verifies no token and pages with no cursor: the template gives it neither.
    expect(env.JWT_PUBLIC_KEYS).toBeUndefined();
    expect(env.CURSOR_SECRET).toBeUndefined();

    // S3 is not emulated: POST /imports loses the bucket, and presigns npm start's own links when they are known.
    const createImport = assembly.functions.get('CreateImportFunction');
    if (!createImport) throw new Error('no CreateImportFunction');
    expect(createImport.environment.IMPORT_BUCKET).toBeDefined();
    expect(runtime.environmentOf(createImport).env.IMPORT_BUCKET).toBeUndefined();
  });

  it('runs a public function: a wrong password gets the 401 problem', async () => {
    const result = (await runtime
      .worker('LoginFunction')
      .invoke(sampleEvent('login', { email: EMAIL, password: 'not the password', rememberMe: false }))) as APIGatewayProxyResult;

    expect(result.statusCode).toBe(401);
    expect(result.headers).toMatchObject({ 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' });
    expect(bodyOf(result)).toEqual({
      type: 'https://problems.backoffice.dev/unauthorized',
      title: 'Unauthorized',
      status: 401,
      detail: 'Invalid e-mail or password',
      requestId: 'sample-login',
    });
  });

  it('runs a protected function as a user: a real session, the authorizer bundle fills in its context', async () => {
    const cookie = await sessionCookieHeader(EMAIL);
    const event = await authorize(withCookie(sampleEvent('me'), cookie), runtime.worker('AuthorizerFunction'));
    const result = (await runtime.worker('MeFunction').invoke(event)) as APIGatewayProxyResult;

    expect(event.requestContext.authorizer).toMatchObject({ email: EMAIL, name: 'Ana Souza', role: 'ADMIN', platformAdmin: 'false' });
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ id: expect.any(String), name: 'Ana Souza', email: EMAIL, tenantId: event.requestContext.authorizer?.tenantId });
  });

  it('does the same from the command line: npm run invoke -- "GET /auth/me" --as <email>', async () => {
    // The store of a running npm start, as the command finds it: this test's DynamoDB Local.
    writeRuntimeInfo(dataDir, { pid: process.pid, dynamoEndpoint: dynamo.endpoint, apiUrl: 'http://127.0.0.1:0' });
    const child = spawn('npx', ['tsx', 'scripts/invoke.ts', 'GET /auth/me', '--as', EMAIL, '--assembly', assemblyDir, '--no-synth'], {
      cwd: repoRoot,
      env: { ...parentEnv, DATA_DIR: dataDir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit));

    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const result = JSON.parse(stdout) as APIGatewayProxyResult;
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toMatchObject({ name: 'Ana Souza', email: EMAIL });
    expect(stderr).toContain('Invoking MeFunction (index.handler');
  });
});

describe('least privilege, enforced locally', () => {
  it('fails a route whose grant was removed from the template with AccessDeniedException and its 500 problem, and passes with the real template', async () => {
    const loginRole = assembly.functions.get('LoginFunction')?.role.logicalId;
    const withoutWrites = editedTemplate((resources) => {
      // The role's grants are its inline policy (infra/constructs/functions.ts, InlinePolicyRole).
      const policies = (resources[loginRole ?? '']?.Properties?.Policies ?? []) as {
        PolicyDocument: { Statement: { Action: string | string[]; Condition?: object }[] };
      }[];
      expect(policies).not.toHaveLength(0);
      for (const { PolicyDocument: document } of policies) {
        // The table grant without its write actions (minimizePolicies merges reads and writes into
        // one statement); the conditional rate-limit grant stays.
        for (const statement of document.Statement) {
          if (!statement.Condition) statement.Action = ([] as string[]).concat(statement.Action).filter((action) => !WRITE_ACTIONS.includes(action));
        }
      }
    });
    const denials: string[] = [];
    const weakened = await startRuntime(readAssembly({ dir: assemblyDir, template: withoutWrites }), (line) => denials.push(line));
    const login = () => sampleEvent('login', { email: EMAIL, password: PASSWORD, rememberMe: false });
    functionLogs.length = 0;
    let refused: APIGatewayProxyResult;
    try {
      refused = (await weakened.worker('LoginFunction').invoke(login())) as APIGatewayProxyResult;
    } finally {
      await weakened.stop();
    }

    expect(refused.statusCode).toBe(500);
    expect(bodyOf(refused)).toEqual({
      type: 'https://problems.backoffice.dev/internal',
      title: 'Internal server error',
      status: 500,
      detail: 'An unexpected error occurred',
      requestId: 'sample-login',
    });
    // The sign-in's transaction starts with the user's update (its session count and openings): of
    // the grants left, only the rate-limit counters' allows UpdateItem, and on RATE# keys alone.
    // Which statement of the role that is depends on the template's order: named N here.
    expect(denials.map((line) => line.replace(/: statement \S+ grants it/, ': statement N grants it'))).toEqual([
      `[iam] LoginFunction: AccessDeniedException on TransactWriteItems: missing grant dynamodb:UpdateItem on ${TABLE_ARN}: statement N grants it, ` +
        `but its condition ForAllValues:StringLike dynamodb:LeadingKeys ["RATE#*"] does not hold for ["TENANT#${tenantId}"]`,
    ]);
    expect(functionLogs.join('')).toContain('AccessDeniedException');

    const passed = (await runtime.worker('LoginFunction').invoke(login())) as APIGatewayProxyResult;
    expect(passed.statusCode).toBe(200);
    expect(passed.multiValueHeaders?.['Set-Cookie']).toHaveLength(2);
  });

  it("runs the scheduled job's bundle within its grants: a complete day's sales rolled up, the coverage index refreshed", async () => {
    // The integration tests run the job in process: this is its one run with its grants enforced.
    const cookie = await sessionCookieHeader(EMAIL);
    const invoke = async (functionId: string, sample: string, body: object) =>
      (await runtime
        .worker(functionId)
        .invoke(await authorize(withCookie(sampleEvent(sample, body), cookie), runtime.worker('AuthorizerFunction')))) as APIGatewayProxyResult;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    const warehouse = bodyOf(await invoke('CreateWarehouseFunction', 'create-warehouse', { name: 'Depósito Roll-up' }));
    const product = bodyOf(await invoke('CreateProductFunction', 'create-product', { sku: 'ROLLUP-1', name: 'Roll-up' }));
    const place = { productId: product.id, warehouseId: warehouse.id };
    expect(
      (await invoke('CreateMovementFunction', 'create-movement', { ...place, type: 'IN', quantity: 10, unitCost: 2, occurredAt: daysAgo(3) })).statusCode,
    ).toBe(201);
    expect((await invoke('CreateMovementFunction', 'create-movement', { ...place, type: 'SALE', quantity: 4, occurredAt: daysAgo(2) })).statusCode).toBe(201);

    const denials: string[] = [];
    const watched = await startRuntime(assembly, (line) => denials.push(line));
    const schedule = JSON.parse(readFileSync(path.join(repoRoot, 'events', 'sales-rollup.json'), 'utf8')) as Record<string, unknown>;
    let result: { counters: number; coverage: { tenants: number } };
    try {
      result = (await watched.worker('SalesRollupFunction').invoke({ ...schedule, time: new Date().toISOString() })) as typeof result;
    } finally {
      await watched.stop();
    }
    expect(denials).toEqual([]);
    expect(result.counters).toBeGreaterThanOrEqual(1);
    expect(result.coverage.tenants).toBeGreaterThanOrEqual(1);
  });

  it("runs the import worker's bundle within its grants: S3's notice of a file, then its rows created and the job's report", async () => {
    // npm start runs imports in process: this is the worker bundle's one run with its grants enforced.
    const cookie = await sessionCookieHeader(EMAIL);
    const invoke = async (functionId: string, sample: string, body?: object, pathParameters?: Record<string, string>) => {
      const event = { ...sampleEvent(sample, body), ...(pathParameters ? { pathParameters } : {}) };
      return (await runtime
        .worker(functionId)
        .invoke(await authorize(withCookie(event, cookie), runtime.worker('AuthorizerFunction')))) as APIGatewayProxyResult;
    };
    const file = Buffer.from('\uFEFFCódigo;Descrição\r\nWORKER-1;Café 500 g\r\nWORKER-2;Chá 100 g\r\nWORKER-2;Repetido\r\n');
    const created = await invoke('CreateImportFunction', 'create-import', { kind: 'products', dryRun: false, fileName: 'produtos.csv', size: file.byteLength });
    expect(created.statusCode).toBe(201);
    const job = bodyOf(created) as { id: string; upload: { url: string } };
    // What npm start's upload link does with the PUT (local/files.ts): the file under its key.
    const key = `imports/${tenantId}/${job.id}.csv`;
    expect(job.upload.url.startsWith(`/local-files/${key}?`)).toBe(true);
    mkdirSync(path.join(dataDir, 'uploads', 'imports', tenantId), { recursive: true });
    writeFileSync(path.join(dataDir, 'uploads', key), file);

    const denials: string[] = [];
    const watched = await startRuntime(assembly, (line) => denials.push(line));
    const notice = { Records: [{ eventName: 'ObjectCreated:Put', s3: { object: { key } } }] };
    let result: { batchItemFailures: unknown[] };
    try {
      result = (await watched.worker('ImportWorkerFunction').invoke({ Records: [{ messageId: 'm-1', body: JSON.stringify(notice) }] })) as typeof result;
    } finally {
      await watched.stop();
    }
    expect(denials).toEqual([]);
    expect(result).toEqual({ batchItemFailures: [] });
    const report = bodyOf(await invoke('GetImportFunction', 'get-import', undefined, { id: job.id }));
    expect(report).toMatchObject({
      status: 'succeeded',
      totalRows: 3,
      created: 2,
      existing: 0,
      refused: 1,
      errors: [{ line: 4, field: 'Código', message: 'repeats line 3: the same SKU' }],
    });
  });

  it('fails a function whose template lacks a variable it reads, as Lambda reports it', async () => {
    const withoutTable = editedTemplate((resources) => {
      const variables = (resources.MeFunction?.Properties?.Environment as { Variables: Record<string, TemplateValue> }).Variables;
      delete variables.TABLE_NAME;
    });
    const broken = await startRuntime(readAssembly({ dir: assemblyDir, template: withoutTable }));
    const event = await authorize(withCookie(sampleEvent('me'), await sessionCookieHeader(EMAIL)), runtime.worker('AuthorizerFunction'));
    try {
      await expect(broken.worker('MeFunction').invoke(event)).rejects.toMatchObject({
        name: 'InvocationError',
        errorType: 'Error',
        errorMessage: 'Invalid configuration: TABLE_NAME: Invalid input',
      });
    } finally {
      await broken.stop();
    }
  });
});

describe('a function worker: one Lambda execution environment', () => {
  const bundle = `
let invocations = 0;
export const handler = async (event, context) => {
  if (event.fail) throw new TypeError('it failed');
  if (event.sleepMs) await new Promise((resolveSleep) => setTimeout(resolveSleep, event.sleepMs));
  invocations += 1;
  console.log('invocation', invocations);
  return { invocations, env: { ...process.env }, name: context.functionName, memory: context.memoryLimitInMB, requestId: context.awsRequestId, remaining: context.getRemainingTimeInMillis() };
};`;

  it('keeps module state between invocations, sees only its own environment, and starts cold after a timeout', async () => {
    const assetDir = mkdtempSync(path.join(tmpdir(), 'backoffice-bundle-'));
    writeFileSync(path.join(assetDir, 'index.mjs'), bundle);
    const logs: string[] = [];
    const worker = startFunctionWorker(
      {
        logicalId: 'ProbeFunction',
        assetDir,
        handler: 'index.handler',
        entryFile: path.join(assetDir, 'index.mjs'),
        exportName: 'handler',
        runtime: 'nodejs22.x',
        memoryMB: 128,
        timeoutSeconds: 1,
        description: '',
        environment: {},
        role: { logicalId: 'ProbeRole', name: 'ProbeRole' },
        statements: [],
      },
      { ONLY: 'this' },
      { log: (chunk) => logs.push(chunk) },
    );
    try {
      const first = (await worker.invoke({}, { awsRequestId: 'request-1' })) as Record<string, unknown>;
      const second = (await worker.invoke({})) as Record<string, unknown>;
      await expect(worker.invoke({ fail: true })).rejects.toMatchObject({ errorType: 'TypeError', errorMessage: 'it failed' });
      await expect(worker.invoke({ sleepMs: 1500 })).rejects.toMatchObject({
        errorType: 'Sandbox.Timedout',
        errorMessage: expect.stringMatching(/Task timed out after 1\.00 seconds$/),
      });
      const afterTimeout = (await worker.invoke({})) as Record<string, unknown>;

      expect(first).toMatchObject({ invocations: 1, env: { ONLY: 'this' }, name: 'ProbeFunction', memory: '128', requestId: 'request-1' });
      expect(Object.keys(first.env as object)).toEqual(['ONLY']);
      expect(first.remaining).toBeGreaterThan(500);
      expect(second.invocations).toBe(2);
      expect(afterTimeout.invocations).toBe(1);
      expect(logs.join('')).toContain('invocation 2');
      expect(process.env.ONLY).toBeUndefined();
    } finally {
      await worker.stop();
      rmSync(assetDir, { recursive: true, force: true });
    }
  });
});
