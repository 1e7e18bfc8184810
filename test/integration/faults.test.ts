import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { cnpj } from 'cpf-cnpj-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorize } from '../../lib/auth/authorize';
import { inviteUser } from '../../lib/auth/invitations';
import { toAuthorizerContext } from '../../lib/auth/principal';
import { register } from '../../lib/auth/registration';
import { createCompany } from '../../lib/companies/service';
import { resetConfig } from '../../lib/config';
import { addMovement, createProduct, createWarehouse } from '../../lib/inventory/service';
import { readAuditPage } from '../../lib/audit/repository';
import { listMovements } from '../../lib/inventory/repository';
import { createSupplier } from '../../lib/suppliers/service';
import { createTenant } from '../../lib/tenants/service';
import { routeLimit } from '../../lib/rate-limit';
import { routes } from '../../lib/routes';
import { ensureTable, freePort, localDynamoClient, startDynamoLocal, type DynamoLocal } from '../../local/dynamodb-local';
import { applyLocalEnvironment } from '../../local/environment';
import { jsonPost, lambdaContext, proxyEvent } from '../../tools/events';

/**
 * Fault injection with the real SDK: the service talks to DynamoDB Local through a proxy
 * that, when armed, answers every write with a throttling error or a 500. The SDK retries
 * as it does on AWS (3 attempts); then the handler must answer 503 with Retry-After and a
 * problem body, and the table must hold exactly what it held before.
 */
type Fault = 'throttle' | 'server-error';
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);
const FAULT_BODY: Record<Fault, { status: number; body: string }> = {
  throttle: {
    status: 400,
    body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' }),
  },
  'server-error': { status: 500, body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'Internal server error' }) },
};

let dynamo: DynamoLocal;
let proxy: Server;
let dataDir: string;
let armed: Fault | undefined;
/** Which operations an armed proxy refuses: every write, unless a test narrows it. */
let armedOperations: Set<string> = WRITES;
let refusedWrites = 0;

beforeAll(async () => {
  dynamo = await startDynamoLocal({ port: await freePort() });
  proxy = createServer((incoming, outgoing) => {
    const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    if (armed && armedOperations.has(operation)) {
      refusedWrites += 1;
      incoming.resume();
      const fault = FAULT_BODY[armed];
      outgoing.writeHead(fault.status, { 'content-type': 'application/x-amz-json-1.0' });
      outgoing.end(fault.body);
      return;
    }
    const target = new URL(dynamo.endpoint);
    const upstream = forward(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (response) => {
        outgoing.writeHead(response.statusCode ?? 500, response.headers);
        response.pipe(outgoing);
      },
    );
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolveListen) => proxy.listen(0, '127.0.0.1', resolveListen));
  dataDir = mkdtempSync(join(tmpdir(), 'backoffice-faults-'));
  process.env.ALLOWED_ORIGINS = 'https://app.example.com';
  // The 503s below are logged as errors by design; this file does not need to show them.
  process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
  await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
  resetConfig();
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME ?? 'backoffice');
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolveClose) => proxy.close(() => resolveClose()));
  await dynamo.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every item of the table, as a sorted list of JSON lines (this file's store only). */
async function snapshot(): Promise<string[]> {
  const client = localDynamoClient(dynamo.endpoint);
  const items: string[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(new ScanCommand({ TableName: process.env.TABLE_NAME, ExclusiveStartKey: startKey as never, ConsistentRead: true }));
    for (const item of page.Items ?? []) items.push(JSON.stringify(item, Object.keys(item).sort()));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  client.destroy();
  return items.sort();
}

/** The token of the invitation e-mail to an address, from this file's outbox. */
function invitationTokenIn(directory: string, address: string): string {
  const outbox = join(directory, 'outbox');
  for (const file of readdirSync(outbox).filter((name) => name.endsWith('.json'))) {
    const message = JSON.parse(readFileSync(join(outbox, file), 'utf8')) as { to: string; text: string };
    const token = message.to === address ? /[?&]token=([\w-]+)/.exec(message.text)?.[1] : undefined;
    if (token) return token;
  }
  throw new Error(`no invitation mail for ${address}`);
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
/** A handler module by its path under functions/ (a path with folders, which vite cannot expand statically: hence vite-ignore). */
const load = async (file: string) => ((await import(/* @vite-ignore */ `../../functions/${file}`)) as { handler: Handler }).handler;

interface World {
  tenantId: string;
  invited: string;
  /** The token of the invitation e-mail to `invited`. */
  invitationToken: string;
  context: Record<string, string>;
  refreshCookie: string;
  email: string;
  companyId: string;
  supplierId: string;
  warehouseId: string;
  productId: string;
}

async function world(): Promise<World> {
  const now = Date.now();
  const email = `faults.${Math.random().toString(36).slice(2, 10)}@example.com`;
  const tenant = await createTenant({ name: `faults-${Math.random().toString(36).slice(2, 10)}`, plan: 'STARTER', adminEmail: email }, now);
  const registered = await register(
    { name: 'Faults', email, password: 'faults password', tenantId: tenant.id, invitationToken: invitationTokenIn(dataDir, email) },
    { ip: '127.0.0.1', userAgent: 'test' },
    now,
    routeLimit(routes.register, 'ip'),
  );
  const principal = await authorize(registered.tokens.accessToken, now);
  const company = await createCompany(principal, { name: 'Company', document: cnpj.generate() }, now);
  const supplier = await createSupplier(principal, { name: 'Supplier', corporateName: 'Supplier Ltda', document: cnpj.generate(), active: true }, now);
  const warehouse = await createWarehouse(principal, { name: 'W' }, now);
  const product = await createProduct(principal, { sku: 'F-1', name: 'Product' }, now);
  await addMovement(principal, { productId: product.id, warehouseId: warehouse.id, type: 'IN', quantity: 10, unitCost: 1 }, now);
  const invited = `invited.${Math.random().toString(36).slice(2, 10)}@example.com`;
  await inviteUser(principal, invited, now);
  return {
    tenantId: tenant.id,
    invited,
    invitationToken: invitationTokenIn(dataDir, invited),
    context: toAuthorizerContext(principal),
    refreshCookie: `refreshToken=${registered.tokens.refreshToken}`,
    email,
    companyId: company.id,
    supplierId: supplier.id,
    warehouseId: warehouse.id,
    productId: product.id,
  };
}

const patch = (resource: string, id: string, body: object, authorizer: Record<string, string>) =>
  proxyEvent({
    method: 'PATCH',
    resource,
    path: resource.replace('{id}', id),
    pathParameters: { id },
    authorizer,
    body,
    headers: { 'Content-Type': 'application/json' },
  });

/** Every write path, as one valid request each. */
const WRITE_PATHS: [string, string, (w: World) => APIGatewayProxyEvent][] = [
  ['POST /tenants', 'tenants/create-tenant.ts', () => jsonPost('/tenants', { name: `new-${Math.random().toString(36).slice(2, 10)}`, plan: 'STARTER' })],
  ['PATCH /tenants/{id}', 'tenants/update-tenant.ts', (w) => patch('/tenants/{id}', w.tenantId, { brandName: 'Changed' }, w.context)],
  [
    'POST /auth/register',
    'auth/register.ts',
    (w) =>
      jsonPost('/auth/register', { name: 'Invited', email: w.invited, password: 'password 123', tenantId: w.tenantId, invitationToken: w.invitationToken }),
  ],
  ['POST /auth/login', 'auth/login.ts', (w) => jsonPost('/auth/login', { email: w.email, password: 'faults password' })],
  ['POST /auth/refresh', 'auth/refresh.ts', (w) => jsonPost('/auth/refresh', null, { headers: { Cookie: w.refreshCookie } })],
  ['POST /auth/logout', 'auth/logout.ts', (w) => jsonPost('/auth/logout', null, { authorizer: w.context })],
  ['POST /auth/invitations', 'auth/create-invitation.ts', (w) => jsonPost('/auth/invitations', { email: 'guest@example.com' }, { authorizer: w.context })],
  ['POST /companies', 'companies/create-company.ts', (w) => jsonPost('/companies', { name: 'New', document: cnpj.generate() }, { authorizer: w.context })],
  ['PATCH /companies/{id}', 'companies/update-company.ts', (w) => patch('/companies/{id}', w.companyId, { name: 'Changed' }, w.context)],
  [
    'PATCH /companies/{id}/status',
    'companies/update-company-status.ts',
    (w) => patch('/companies/{id}/status', w.companyId, { status: 'DISABLED' }, w.context),
  ],
  [
    'POST /suppliers',
    'suppliers/create-supplier.ts',
    (w) => jsonPost('/suppliers', { name: 'New', corporateName: 'New Ltda', document: cnpj.generate() }, { authorizer: w.context }),
  ],
  ['PATCH /suppliers/{id}', 'suppliers/update-supplier.ts', (w) => patch('/suppliers/{id}', w.supplierId, { name: 'Changed' }, w.context)],
  ['POST /inventory/warehouses', 'inventory/create-warehouse.ts', (w) => jsonPost('/inventory/warehouses', { name: 'New' }, { authorizer: w.context })],
  ['POST /inventory/products', 'inventory/create-product.ts', (w) => jsonPost('/inventory/products', { sku: 'NEW-1', name: 'New' }, { authorizer: w.context })],
  [
    'POST /inventory/movements',
    'inventory/create-movement.ts',
    (w) => jsonPost('/inventory/movements', { productId: w.productId, warehouseId: w.warehouseId, type: 'SALE', quantity: 2 }, { authorizer: w.context }),
  ],
];

describe.each(['throttle', 'server-error'] as const)('DynamoDB %s on every write path', (fault) => {
  it.each(WRITE_PATHS)('%s answers 503 with Retry-After after the SDK retries and writes nothing', async (_name, file, event) => {
    const w = await world();
    const handler = await load(file);
    const before = await snapshot();

    armed = fault;
    refusedWrites = 0;
    let result: APIGatewayProxyResult;
    try {
      result = await handler(event(w), lambdaContext());
    } finally {
      armed = undefined;
    }

    expect(result.statusCode).toBe(503);
    expect(result.headers).toEqual(expect.objectContaining({ 'Content-Type': 'application/problem+json', 'Retry-After': '1' }));
    expect(JSON.parse(result.body)).toEqual({
      type: 'https://problems.backoffice.dev/unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: expect.any(String),
      requestId: expect.any(String),
    });
    // The SDK's standard retry mode made its 3 attempts before giving up.
    expect(refusedWrites).toBeGreaterThanOrEqual(3);
    expect(await snapshot()).toEqual(before);
  });
});

describe('a store fault between an Idempotency-Key and its write', () => {
  it('leaves nothing half-applied (the key is given back), and the retry applies the write exactly once', async () => {
    const w = await world();
    const handler = await load('inventory/create-movement.ts');
    const request = () =>
      jsonPost(
        '/inventory/movements',
        { productId: w.productId, warehouseId: w.warehouseId, type: 'IN', quantity: 3, unitCost: 2 },
        { authorizer: w.context, headers: { 'Idempotency-Key': 'retry-after-fault' } },
      );
    const before = await snapshot();

    // The key is taken (PutItem), then the write's transaction fails on every SDK attempt.
    armed = 'server-error';
    armedOperations = new Set(['TransactWriteItems']);
    let failed: APIGatewayProxyResult;
    try {
      failed = await handler(request(), lambdaContext());
    } finally {
      armed = undefined;
      armedOperations = WRITES;
    }
    expect(failed.statusCode).toBe(503);
    expect(await snapshot()).toEqual(before);

    const retried = await handler(request(), lambdaContext());
    const again = await handler(request(), lambdaContext());
    expect(retried.statusCode).toBe(201);
    expect(retried.headers?.['Idempotent-Replayed']).toBeUndefined();
    expect(again.statusCode).toBe(201);
    expect(again.headers?.['Idempotent-Replayed']).toBe('true');
    expect(JSON.parse(again.body)).toEqual(JSON.parse(retried.body));
    // The world's own IN of 10, then this one, once.
    expect((await listMovements(w.tenantId, w.productId, w.warehouseId)).map((movement) => movement.quantity)).toEqual([10, 3]);
  });
});

describe('a store fault on a company status change', () => {
  it('leaves neither the change nor its audit entry, and the retry records the change once, from the state it replaced', async () => {
    const w = await world();
    const handler = await load('companies/update-company-status.ts');
    const before = await snapshot();

    armed = 'server-error';
    armedOperations = new Set(['TransactWriteItems']);
    let failed: APIGatewayProxyResult;
    try {
      failed = await handler(patch('/companies/{id}/status', w.companyId, { status: 'SUSPENDED' }, w.context), lambdaContext());
    } finally {
      armed = undefined;
      armedOperations = WRITES;
    }
    expect(failed.statusCode).toBe(503);
    expect(await snapshot()).toEqual(before);

    const retried = await handler(patch('/companies/{id}/status', w.companyId, { status: 'SUSPENDED' }, w.context), lambdaContext());
    expect(retried.statusCode).toBe(200);
    const { entries } = await readAuditPage({ tenantId: w.tenantId }, { filter: { resourceId: w.companyId }, fromSk: '0', toSk: '~', limit: 10 });
    // Newest first: the change, then the creation (made by world() outside a request: the system's).
    expect(entries.map(({ action, actor, changes }) => ({ action, actor: actor.type, changes }))).toEqual([
      { action: 'company.status_changed', actor: 'user', changes: [{ field: 'status', before: 'ACTIVE', after: 'SUSPENDED' }] },
      { action: 'company.created', actor: 'system', changes: null },
    ]);
  });
});
