/**
 * Per route, on DynamoDB Local in this process: the DynamoDB requests and capacity one
 * typical call costs (ReturnConsumedCapacity), and the warm handler CPU time per invocation
 * (median and p99 of process.cpuUsage around each call; DynamoDB Local runs in its own JVM,
 * so its work is not counted).
 *
 * Targets: the authorizer one round trip; a read route one round trip in its handler (the
 * rate-limit counter aside); a create one transaction.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { cnpj } from 'cpf-cnpj-validator';
import { handler as authorizerHandler } from '../functions/auth/authorizer';
import { createApiKey } from '../lib/api-keys/service';
import { authorize } from '../lib/auth/authorize';
import { inviteUser } from '../lib/auth/invitations';
import { requestPasswordReset } from '../lib/auth/password-reset';
import { toAuthorizerContext, type Principal } from '../lib/auth/principal';
import { register } from '../lib/auth/registration';
import { openSession } from '../lib/auth/sessions';
import { createCompany } from '../lib/companies/service';
import { insertSession } from '../lib/auth/sessions-repository';
import { addMovement, createProduct, createWarehouse } from '../lib/inventory/service';
import { routeHandlers } from '../tools/openapi/handlers';
import { routeLimit, takenByChain } from '../lib/rate-limit';
import { routeList, routes, type Route, type RouteId } from '../lib/routes';
import { createSupplier } from '../lib/suppliers/service';
import { createTenant } from '../lib/tenants/service';
import { config } from '../lib/config';
import { dayOf } from '../lib/domain/days';
import { runSalesRollup } from '../lib/jobs/sales-rollup';
import { exampleRequest } from '../scripts/route-artifacts';
import { authorizerEvent, jsonPost, lambdaContext, proxyEvent } from '../tools/events';
import { measureCapacity } from './support/capacity';
import { expectCoverageIndexCurrent } from './support/coverage';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

export interface RouteFigure {
  name: string;
  requests: number;
  commands: string[];
  capacityUnits: number;
  invocations: number;
  cpuMedianMs: number;
  cpuP99Ms: number;
  target: string;
  met: boolean | null;
  status: number;
}

const DEFAULT_INVOCATIONS = 1000;

interface World {
  tenantId: string;
  admin: Principal;
  adminEmail: string;
  password: string;
  context: Record<string, string>;
  refreshToken: string;
  companyId: string;
  supplierId: string;
  warehouseId: string;
  productId: string;
  dataDir: string;
}

const client = { ip: '198.51.100.1', userAgent: 'bench' };
const REGISTER_ATTEMPTS = routeLimit(routes.register, 'ip');
const ipOf = (index: number) => `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;

async function buildWorld(dataDir: string): Promise<World> {
  const now = Date.now();
  const adminEmail = `admin.${randomUUID().slice(0, 8)}@bench.example`;
  const tenant = await createTenant({ name: `bench-${randomUUID().slice(0, 8)}`, plan: 'ENTERPRISE', adminEmail }, now);
  const password = 'bench password 123';
  const registered = await register(
    { name: 'Bench Admin', email: adminEmail, password, tenantId: tenant.id, invitationToken: latestMailToken(dataDir, adminEmail) },
    client,
    now,
    REGISTER_ATTEMPTS,
  );
  const admin = await authorize(registered.tokens.accessToken, now);
  const company = await createCompany(admin, { name: 'Bench Company', document: cnpj.generate() }, now);
  const supplier = await createSupplier(
    admin,
    { name: 'Fornecedor Bench', corporateName: 'Fornecedor Bench Ltda', document: cnpj.generate(), active: true },
    now,
  );
  const warehouse = await createWarehouse(admin, { name: 'Bench Warehouse' }, now);
  const product = await createProduct(admin, { sku: 'BENCH-1', name: 'Bench product' }, now);
  await addMovement(admin, { productId: product.id, warehouseId: warehouse.id, type: 'IN', quantity: 1_000_000, unitCost: 3 }, now);
  // The daily job, as every tenant has had it by its second day: the coverage dashboard then
  // reads its index; a tenant before its first run is read in full, which is not the typical call.
  await runSalesRollup({ nowMs: now, only: [tenant.id] });
  return {
    tenantId: tenant.id,
    admin,
    adminEmail,
    password,
    context: toAuthorizerContext(admin),
    refreshToken: registered.tokens.refreshToken,
    companyId: company.id,
    supplierId: supplier.id,
    warehouseId: warehouse.id,
    productId: product.id,
    dataDir,
  };
}

/** A new live session of the admin (no bcrypt), with its authorizer context. */
async function freshSession(world: World): Promise<{ context: Record<string, string>; accessToken: string; refreshToken: string; sessionId: string }> {
  const now = Date.now();
  const { session, tokens } = await openSession({ id: world.admin.userId, tenantId: world.tenantId }, false, client, now, world.admin.credentialVersion);
  await insertSession(session);
  const principal = await authorize(tokens.accessToken, now);
  return { context: toAuthorizerContext(principal), accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, sessionId: session.id };
}

/** `count` new API keys of the world's tenant, made as POST /api-keys makes them. */
async function keysOf(world: World, count: number): Promise<{ id: string; key: string }[]> {
  const made: { id: string; key: string }[] = [];
  for (let index = 0; index < count; index += 1)
    made.push(await createApiKey(world.admin, { name: `Key ${index}`, scopes: { inventory: 'write', dashboards: 'read' } }, Date.now()));
  return made;
}

interface Scenario {
  invocations?: number;
  /** The events, prepared before anything is timed. */
  events: (world: World, count: number) => Promise<APIGatewayProxyEvent[]> | APIGatewayProxyEvent[];
  /** Between invocations (refresh passes its new cookie on). */
  after?: (result: APIGatewayProxyResult, next: APIGatewayProxyEvent | undefined) => void;
  /** Before and after the invocations: fails, saying why, when the route would not take the path its row is about. */
  expectPath?: (world: World, when: string) => Promise<void>;
}

const repeat = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));
const get = (route: Route, world: World, extra: Parameters<typeof proxyEvent>[0] = {}) =>
  proxyEvent({ method: route.method, resource: route.path, authorizer: world.context, ...extra });

/** The token of the newest mail to an address that carries one (a reset or an invitation link). */
function latestMailToken(dataDir: string, email: string): string {
  const directory = join(dataDir, 'outbox');
  const files = readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .reverse();
  for (const file of files) {
    const message = JSON.parse(readFileSync(join(directory, file), 'utf8')) as { to: string; text: string };
    const token = /[?&]token=([\w-]+)/.exec(message.text)?.[1];
    if (message.to === email && token) return token;
  }
  throw new Error(`no mail with a token for ${email}`);
}

/**
 * A route without a scenario below is measured on its docs' example request (the one its
 * sample event carries), as the bench's administrator on a protected route.
 */
function defaultScenario(route: Route & { id: RouteId }): Scenario {
  const request = exampleRequest(route, routeHandlers[route.id].docs);
  return {
    events: (world, count) =>
      repeat(count, () =>
        proxyEvent({
          method: route.method,
          resource: route.path,
          path: request.path,
          pathParameters: request.pathParameters,
          query: request.query,
          headers: request.headers,
          body: request.body,
          authorizer: route.auth === 'protected' ? { ...world.context, platformAdmin: String(request.platformAdmin) } : null,
        }),
      ),
  };
}

/** A GET of one item of the bench's tenant, by its real id (the docs' example id exists nowhere). */
const readById = (resource: string, idOf: (world: World) => string): Scenario => ({
  events: (world, count) =>
    repeat(count, () =>
      proxyEvent({ method: 'GET', resource, path: resource.replace('{id}', idOf(world)), pathParameters: { id: idOf(world) }, authorizer: world.context }),
    ),
});

/** The coverage window the routes bench reads: one of the indexed ones (INDEXED_COVERAGE_DAYS). */
const COVERAGE_DAYS = 30;

/** Hand-written scenarios: the routes whose typical call needs data of its own (a real id, a fresh token). */
const scenarios: Partial<Record<RouteId, Scenario>> = {
  getSupplier: readById('/suppliers/{id}', (world) => world.supplierId),
  getWarehouse: readById('/inventory/warehouses/{id}', (world) => world.warehouseId),
  getProduct: readById('/inventory/products/{id}', (world) => world.productId),
  // An indexed window, served by the index the job marked current (checked, before and after).
  stockCoverage: {
    events: (world, count) =>
      repeat(count, () =>
        proxyEvent({ method: 'GET', resource: '/inventory/dashboard/coverage', query: { days: String(COVERAGE_DAYS) }, authorizer: world.context }),
      ),
    expectPath: (world, when) => expectCoverageIndexCurrent(world.tenantId, COVERAGE_DAYS, dayOf(Date.now(), config().BUSINESS_TIME_ZONE), when),
  },
  createTenant: {
    events: (_world, count) =>
      repeat(count, (index) => jsonPost('/tenants', { name: `t-${randomUUID().slice(0, 12)}`, plan: 'STARTER' }, { sourceIp: ipOf(index) })),
  },
  updateTenant: {
    events: (world, count) =>
      repeat(count, (index) =>
        proxyEvent({
          method: 'PATCH',
          resource: '/tenants/{id}',
          pathParameters: { id: world.tenantId },
          authorizer: world.context,
          headers: { 'Content-Type': 'application/json' },
          body: { brandName: `Brand ${index}` },
        }),
      ),
  },
  register: {
    invocations: 50,
    events: async (world, count) => {
      const emails = repeat(count, () => `invited.${randomUUID().slice(0, 8)}@bench.example`);
      const events: APIGatewayProxyEvent[] = [];
      for (const email of emails) {
        await inviteUser(world.admin, email, Date.now());
        events.push(
          jsonPost('/auth/register', {
            name: 'Invited',
            email,
            password: 'invited password',
            tenantId: world.tenantId,
            invitationToken: latestMailToken(world.dataDir, email),
          }),
        );
      }
      return events;
    },
  },
  login: { invocations: 50, events: (world, count) => repeat(count, () => jsonPost('/auth/login', { email: world.adminEmail, password: world.password })) },
  refresh: {
    events: async (world, count) => {
      const { refreshToken } = await freshSession(world);
      return repeat(count, (index) => jsonPost('/auth/refresh', null, { headers: index === 0 ? { Cookie: `refreshToken=${refreshToken}` } : {} }));
    },
    // Each refresh rotates the token: the next call presents the new one.
    after: (result, next) => {
      const cookie = (result.multiValueHeaders?.['Set-Cookie'] as string[] | undefined)?.find((line) => line.startsWith('refreshToken='));
      if (next && cookie) {
        const value = cookie.split(';')[0] as string;
        next.headers.Cookie = value;
        next.multiValueHeaders.Cookie = [value];
      }
    },
  },
  logout: {
    events: async (world, count) => {
      const events: APIGatewayProxyEvent[] = [];
      for (let index = 0; index < count; index += 1) events.push(jsonPost('/auth/logout', null, { authorizer: (await freshSession(world)).context }));
      return events;
    },
  },
  // Per-user limit of 10 a minute: each call comes from another user id of the tenant.
  listSessions: {
    events: (world, count) =>
      repeat(count, (index) =>
        get({ method: 'GET', path: '/auth/sessions' } as Route, index === 0 ? world : { ...world, context: { ...world.context, userId: randomUUID() } }),
      ),
  },
  revokeSession: {
    invocations: 10,
    events: async (world, count) => {
      const events: APIGatewayProxyEvent[] = [];
      for (let index = 0; index < count; index += 1) {
        const { sessionId } = await freshSession(world);
        events.push(proxyEvent({ method: 'POST', resource: '/auth/sessions/{id}/revoke', pathParameters: { id: sessionId }, authorizer: world.context }));
      }
      return events;
    },
  },
  forgotPassword: {
    invocations: 20,
    events: (world, count) => repeat(count, (index) => jsonPost('/auth/forgot-password', { email: world.adminEmail }, { sourceIp: ipOf(index + 1) })),
  },
  resetPassword: {
    invocations: 10,
    events: async (world, count) => {
      const events: APIGatewayProxyEvent[] = [];
      for (let index = 0; index < count; index += 1) {
        // A user of its own per reset, so that each reset has a live token.
        const email = `reset.${randomUUID().slice(0, 8)}@bench.example`;
        await inviteUser(world.admin, email, Date.now());
        const invitationToken = latestMailToken(world.dataDir, email);
        await register(
          { name: 'Reset', email, password: 'old password 123', tenantId: world.tenantId, invitationToken },
          client,
          Date.now(),
          REGISTER_ATTEMPTS,
        );
        await requestPasswordReset(email, Date.now(), routeLimit(routes.forgotPassword, 'email'));
        events.push(jsonPost('/auth/reset-password', { token: latestMailToken(world.dataDir, email), newPassword: 'new password 123' }));
      }
      return events;
    },
  },
  // Per-user limit of 20 an hour: each call comes from another user id of the tenant.
  createInvitation: {
    events: (world, count) =>
      repeat(count, (index) =>
        jsonPost(
          '/auth/invitations',
          { email: `guest.${randomUUID().slice(0, 10)}@bench.example` },
          { authorizer: index === 0 ? world.context : { ...world.context, userId: randomUUID() } },
        ),
      ),
  },
  // Key changes count 20 an hour per administrator: each event is another one's.
  createApiKey: {
    invocations: 200,
    events: (world, count) =>
      repeat(count, (index) =>
        jsonPost('/api-keys', { name: `PDV ${index}`, scopes: { inventory: 'write' } }, { authorizer: { ...world.context, userId: randomUUID() } }),
      ),
  },
  rollApiKey: {
    invocations: 200,
    events: async (world, count) => {
      const made = await keysOf(world, count);
      return made.map((key) =>
        proxyEvent({
          method: 'POST',
          resource: '/api-keys/{id}/roll',
          pathParameters: { id: key.id },
          authorizer: { ...world.context, userId: randomUUID() },
          headers: { 'Content-Type': 'application/json' },
          body: { expiresInHours: 1 },
        }),
      );
    },
  },
  deleteApiKey: {
    invocations: 200,
    events: async (world, count) => {
      const made = await keysOf(world, count);
      return made.map((key) =>
        proxyEvent({ method: 'DELETE', resource: '/api-keys/{id}', pathParameters: { id: key.id }, authorizer: { ...world.context, userId: randomUUID() } }),
      );
    },
  },
  createCompany: {
    events: (world, count) =>
      repeat(count, (index) => jsonPost('/companies', { name: `Company ${index}`, document: cnpj.generate() }, { authorizer: world.context })),
  },
  updateCompany: {
    events: (world, count) =>
      repeat(count, (index) =>
        proxyEvent({
          method: 'PATCH',
          resource: '/companies/{id}',
          pathParameters: { id: world.companyId },
          authorizer: world.context,
          headers: { 'Content-Type': 'application/json' },
          body: { name: `Company renamed ${index}` },
        }),
      ),
  },
  updateCompanyStatus: {
    events: (world, count) =>
      repeat(count, (index) =>
        proxyEvent({
          method: 'PATCH',
          resource: '/companies/{id}/status',
          pathParameters: { id: world.companyId },
          authorizer: world.context,
          headers: { 'Content-Type': 'application/json' },
          body: { status: index % 2 === 0 ? 'DISABLED' : 'ACTIVE' },
        }),
      ),
  },
  createSupplier: {
    events: (world, count) =>
      repeat(count, (index) =>
        jsonPost(
          '/suppliers',
          { name: `Fornecedor ${index}`, corporateName: `Fornecedor ${index} Ltda`, document: cnpj.generate(), phone: '+5511987654321' },
          { authorizer: world.context },
        ),
      ),
  },
  listSuppliers: {
    events: (world, count) => repeat(count, () => get({ method: 'GET', path: '/suppliers' } as Route, world, { query: { page: '1', limit: '10' } })),
  },
  updateSupplier: {
    events: (world, count) =>
      repeat(count, (index) =>
        proxyEvent({
          method: 'PATCH',
          resource: '/suppliers/{id}',
          pathParameters: { id: world.supplierId },
          authorizer: world.context,
          headers: { 'Content-Type': 'application/json' },
          body: { email: `contato${index}@fornecedor.example` },
        }),
      ),
  },
  createWarehouse: {
    events: (world, count) => repeat(count, (index) => jsonPost('/inventory/warehouses', { name: `Warehouse ${index}` }, { authorizer: world.context })),
  },
  createProduct: {
    events: (world, count) =>
      repeat(count, (index) =>
        jsonPost('/inventory/products', { sku: `P-${index}-${randomUUID().slice(0, 6)}`, name: `Product ${index}` }, { authorizer: world.context }),
      ),
  },
  createMovement: {
    events: (world, count) =>
      repeat(count, (index) =>
        jsonPost(
          '/inventory/movements',
          index % 2 === 0
            ? { productId: world.productId, warehouseId: world.warehouseId, type: 'SALE', quantity: 1 }
            : { productId: world.productId, warehouseId: world.warehouseId, type: 'IN', quantity: 1, unitCost: 3 },
          { authorizer: world.context },
        ),
      ),
  },
  // After createMovement's 1000 calls: a full page of this product's history, as a user sees it.
  listMovements: {
    events: (world, count) =>
      repeat(count, () => proxyEvent({ method: 'GET', resource: '/inventory/movements', query: { productId: world.productId }, authorizer: world.context })),
  },
};

/** Lists are measured before the creates that would grow them; routes not named here come last. */
const ORDER: RouteId[] = [
  'me',
  'listTenants',
  'listCompanies',
  'listSuppliers',
  'listWarehouses',
  'listProducts',
  'stockCoverage',
  'stockByWarehouse',
  'listSessions',
  'updateTenant',
  'updateCompany',
  'updateCompanyStatus',
  'updateSupplier',
  'createMovement',
  'listMovements',
  'createCompany',
  'createSupplier',
  'createWarehouse',
  'createProduct',
  'createInvitation',
  'createTenant',
  'refresh',
  'logout',
  'revokeSession',
  'login',
  'register',
  'forgotPassword',
  'resetPassword',
];

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;
}

const cpuMs = (start: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

/** Creates of a resource: one transaction (the rate-limit counter aside). */
const CREATES: RouteId[] = ['createTenant', 'createCompany', 'createSupplier', 'createWarehouse', 'createProduct', 'createMovement'];

function targetOf(route: Route & { id: RouteId }): { text: string; check: (commands: string[]) => boolean } | undefined {
  // The limiter's conditional UpdateItem comes first on a rate-limited route.
  const chainLimits = (route.rateLimits ?? []).filter(takenByChain).length;
  const limiter = route.rateLimits?.length ? ' (+ limiter)' : '';
  const own = (commands: string[]) => commands.slice(chainLimits);
  if (route.method === 'GET') return { text: `1 round trip${limiter}`, check: (commands) => own(commands).length <= 1 };
  if (CREATES.includes(route.id)) {
    return { text: `1 transaction${limiter}`, check: (commands) => own(commands).filter((name) => name.startsWith('TransactWrite')).length === 1 };
  }
  return undefined;
}

export async function runRouteBench(dataDir: string, log: (line: string) => void): Promise<RouteFigure[]> {
  const world = await buildWorld(dataDir);
  const figures: RouteFigure[] = [];
  const routesById = new Map(routeList().map((route) => [route.id, route]));

  // The authorizer, with the access cookie of a live session.
  {
    const { accessToken } = await freshSession(world);
    const events: APIGatewayRequestAuthorizerEvent[] = repeat(DEFAULT_INVOCATIONS, () => authorizerEvent({ cookie: `accessToken=${accessToken}` }));
    figures.push(
      await measure<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>(
        'authorizer',
        '1 round trip',
        (commands) => commands.length === 1,
        events,
        (event) => authorizerHandler(event),
        () => 200,
      ),
    );
  }

  // The authorizer, with an API key (the key's last use is written once, before the timed invocations' 5 minutes are up).
  {
    const [key] = await keysOf(world, 1);
    if (!key) throw new Error('no key was made');
    const keyEvent = (): APIGatewayRequestAuthorizerEvent => {
      const event = authorizerEvent({ method: 'POST', resource: '/inventory/movements' });
      const headers = { Authorization: `Bearer ${key.key}` };
      return { ...event, headers, multiValueHeaders: { Authorization: [headers.Authorization] } };
    };
    await authorizerHandler(keyEvent());
    const events = repeat(DEFAULT_INVOCATIONS, keyEvent);
    figures.push(
      await measure<APIGatewayRequestAuthorizerEvent, APIGatewayAuthorizerResult>(
        'authorizer (API key)',
        '1 round trip',
        (commands) => commands.length === 1,
        events,
        (event) => authorizerHandler(event),
        () => 200,
      ),
    );
  }

  const order = [
    ...ORDER,
    ...routeList()
      .map((route) => route.id)
      .filter((id) => !ORDER.includes(id)),
  ];
  for (const id of order) {
    const route = routesById.get(id);
    if (!route) continue;
    const scenario = scenarios[id] ?? defaultScenario(route);
    const count = scenario.invocations ?? DEFAULT_INVOCATIONS;
    const events = await scenario.events(world, count);
    const { handler } = (await import(`../${route.handler}`)) as { handler: Handler };
    const target = targetOf(route);
    await scenario.expectPath?.(world, `before ${route.method} ${route.path}`);
    figures.push(
      await measure(
        `${route.method} ${route.path}`,
        target?.text ?? '',
        target?.check,
        events,
        (event) => handler(event, lambdaContext()),
        (result) => result.statusCode,
        (result, index) => scenario.after?.(result, events[index + 1]),
      ),
    );
    await scenario.expectPath?.(world, `after ${route.method} ${route.path}`);
    log(`routes: ${route.method} ${route.path} done`);
  }
  return figures;
}

async function measure<E, R>(
  name: string,
  targetText: string,
  check: ((commands: string[]) => boolean) | undefined,
  events: E[],
  invoke: (event: E) => Promise<R>,
  statusOf: (result: R) => number,
  after?: (result: R, index: number) => void,
): Promise<RouteFigure> {
  const first = events[0] as E;
  const measured = await measureCapacity(() => invoke(first));
  after?.(measured.result, 0);
  const times: number[] = [];
  for (let index = 1; index < events.length; index += 1) {
    const start = process.cpuUsage();
    const result = await invoke(events[index] as E);
    times.push(cpuMs(start));
    after?.(result, index);
  }
  return {
    name,
    requests: measured.requests,
    commands: measured.commands,
    capacityUnits: Math.round(measured.capacityUnits * 100) / 100,
    invocations: events.length,
    cpuMedianMs: Math.round(percentile(times, 0.5) * 100) / 100,
    cpuP99Ms: Math.round(percentile(times, 0.99) * 100) / 100,
    target: targetText,
    met: check ? check(measured.commands) : null,
    status: statusOf(measured.result),
  };
}
