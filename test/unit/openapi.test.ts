import { createServer, type Server } from 'node:http';
import fc from 'fast-check';
import type { AddressInfo } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractValidator } from '../../tools/openapi/contract';
import { ACCESS_COOKIE_SCHEME, API_KEY_SCHEME, buildOpenApiDocument, REFRESH_COOKIE_SCHEME } from '../../tools/openapi/document';
import { operations } from '../../tools/openapi/operations';
import type { HeaderObject, OperationObject, ReferenceObject, ResponseObject } from '../../tools/openapi/types';
import { API_KEY_PATTERN, KEY_ID_PATTERN, newKeyId, newKeyText, tenantOfKeyId } from '../../lib/api-keys/format';
import { keyRateLimitHeaders } from '../../lib/http/middleware/rate-limit';
import type { RouteHandler } from '../../lib/http/handler';
import { routeList, routes, type RouteId } from '../../lib/routes';
import { withDocs } from '../../local/docs-server';
import { requiredText } from '../../lib/domain/fields';
import { REQUIRED_TEXT_PATTERN } from '../../lib/domain/text';
import { movementBody, MOVEMENT_TYPES } from '../../lib/inventory/schemas';
import { createApiKeyBody } from '../../lib/api-keys/schemas';

const document = buildOpenApiDocument();
const contract = createContractValidator(document);

/** Every operation of the document with its method and path. */
function documentedOperations(): { method: string; path: string; operation: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries<OperationObject>(item).map(([verb, operation]) => ({ method: verb.toUpperCase(), path, operation })),
  );
}

const operationOf = (id: RouteId): OperationObject => {
  const found = documentedOperations().find(({ operation }) => operation.operationId === id);
  if (!found) throw new Error(`no operation ${id}`);
  return found.operation;
};

const UUID = '0b6c2b1e-5f43-4f7e-9a7e-0c1d2e3f4a5b';
const TIMESTAMP = '2026-11-21T23:15:00.000Z';
const USER = { id: UUID, name: 'Ana', email: 'ana@example.com', tenantId: UUID };
const notFound = { type: 'https://problems.backoffice.dev/not-found', title: 'Not found', status: 404, detail: 'No such company', requestId: 'r-1' };

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as unknown as Record<string, unknown>);

    expect(result).toEqual({ valid: true });
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
  });

  it('has exactly the routes of the manifest: every route is an operation and every operation a route', () => {
    const manifest = routeList()
      .map((route) => `${route.method} ${route.path} ${route.id}`)
      .sort();
    const documented = documentedOperations()
      .map(({ method, path, operation }) => `${method} ${path} ${operation.operationId}`)
      .sort();

    expect(documented).toEqual(manifest);
    expect(Object.keys(operations).sort()).toEqual(
      routeList()
        .map((route) => route.id)
        .sort(),
    );
  });

  it('describes exactly the schemas each handler validates with (the very same objects)', async () => {
    for (const route of routeList()) {
      const { handler } = (await import(/* @vite-ignore */ `../../${route.handler}`)) as { handler: RouteHandler };
      const request = (operations as Record<RouteId, { request?: { body?: unknown; query?: unknown; path?: unknown } }>)[route.id].request ?? {};
      expect(handler.route, route.id).toBe(routes[route.id]);
      expect(handler.input.body, `${route.id} body`).toBe(request.body);
      expect(handler.input.query, `${route.id} query`).toBe(request.query);
      expect(handler.input.path, `${route.id} path`).toBe(request.path);
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs: string[] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string') refs.push(child);
        else walk(child);
      }
    };
    walk(document);
    const resolves = (ref: string) =>
      ref.startsWith('#/') &&
      ref
        .slice(2)
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document) !== undefined;

    expect(refs.length).toBeGreaterThan(100);
    expect(refs.filter((ref) => !resolves(ref))).toEqual([]);
  });

  it('applies the access cookie scheme to every protected route (or an API key where the manifest opens it to keys), the refresh cookie to refresh, none to the other public routes', () => {
    expect(document.components.securitySchemes[ACCESS_COOKIE_SCHEME]).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'accessToken' }));
    expect(document.components.securitySchemes[REFRESH_COOKIE_SCHEME]).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'refreshToken' }));
    for (const route of routeList()) {
      const keys = route.auth === 'protected' && route.apiKey ? [{ [API_KEY_SCHEME]: [] }] : [];
      const expected = route.auth === 'protected' ? [{ [ACCESS_COOKIE_SCHEME]: [] }, ...keys] : route.id === 'refresh' ? [{ [REFRESH_COOKIE_SCHEME]: [] }] : [];
      expect(operationOf(route.id).security, route.id).toEqual(expected);
    }
    // Both kinds of protected route exist: the check above is not vacuous either way.
    expect(routeList().filter((route) => route.auth === 'protected' && route.apiKey).length).toBeGreaterThan(10);
    expect(routeList().filter((route) => route.auth === 'protected' && route.apiKey === false).length).toBeGreaterThan(10);
  });

  it('declares API keys as an HTTP bearer scheme whose description gives the key pattern and the rules', () => {
    const scheme = document.components.securitySchemes[API_KEY_SCHEME];
    expect(scheme).toEqual({ type: 'http', scheme: 'bearer', bearerFormat: expect.stringMatching(/^bo_live_/), description: expect.any(String) });
    const { description } = scheme as { description: string };
    expect(description).toContain(`\`${API_KEY_PATTERN}\``);
    expect(description).toMatch(/`Origin` or `Sec-Fetch-Site` header gets 401/);
    expect(description).toMatch(/both at once get 400/);
    expect(description).toContain('`RateLimit-Policy`');
    expect(description).toContain('`RateLimit`');
    // The pattern the document quotes matches a real key, whole.
    const key = newKeyText('live', newKeyId(UUID, Date.parse(TIMESTAMP)));
    expect(new RegExp(`^${API_KEY_PATTERN}$`).test(key)).toBe(true);
    expect(document.info.description).toMatch(/\*\*API keys\.\*\* /);
  });

  it('names the scope a key needs on exactly the operations the manifest opens to keys, and says so in their descriptions', () => {
    for (const route of routeList()) {
      const operation = operationOf(route.id);
      const scope = route.auth === 'protected' && route.apiKey ? route.apiKey : undefined;
      expect(operation['x-api-key-scope'], route.id).toEqual(scope);
      if (scope)
        expect(operation.description, route.id).toContain(
          `**API keys:** a key holding ${scope.access === 'read' ? '`read` or `write`' : '`write`'} of \`${scope.resource}\` may call it`,
        );
      else if (route.auth === 'protected') expect(operation.description, route.id).toMatch(/\*\*API keys:\*\* not accepted; .* \(a key gets 403\)\.$/);
      else expect(operation.description, route.id).not.toContain('API keys:');
    }
    expect(operationOf('listSuppliers').description).toContain('a key holding `read` or `write` of `suppliers`');
    expect(operationOf('createMovement').description).toContain('a key holding `write` of `inventory`');
  });

  it('documents the 400 of both credentials and the 403 of a key on every protected route', () => {
    for (const route of routeList()) {
      if (route.auth !== 'protected') continue;
      const { responses } = operationOf(route.id);
      expect((responses['400'] as ReferenceObject | undefined)?.description, route.id).toContain('Both the session cookie and an API key');
      const forbidden = (responses['403'] as ReferenceObject | undefined)?.description;
      if (route.apiKey) expect(forbidden, route.id).toContain(`An API key without \`${route.apiKey.access}\` on \`${route.apiKey.resource}\``);
      else expect(forbidden, route.id).toContain('An API key: this operation takes the session cookie only.');
    }
    expect((operationOf('updateCompany').responses['403'] as ReferenceObject).description).toContain('An API key limited to another company.');
    expect((operationOf('createCompany').responses['403'] as ReferenceObject).description).toContain('it cannot create another');
    expect((operationOf('listCompanies').responses['403'] as ReferenceObject).description).not.toContain('limited');
    // What the function answers for an authorizer's refusal (lib/auth/principal.ts) matches the document.
    const refusal = (status: number, type: string, detail: string) => ({
      status,
      contentType: 'application/problem+json',
      body: { type: `https://problems.backoffice.dev/${type}`, title: type, status, detail, requestId: 'r-1' },
    });
    expect(
      contract.check({ method: 'GET', path: '/auth/me', ...refusal(403, 'forbidden', 'API keys cannot use this route: it takes a signed-in session') }),
    ).toBeUndefined();
    expect(
      contract.check({
        method: 'GET',
        path: '/users',
        ...refusal(400, 'bad-request', 'Send either the session cookie or an API key (Authorization: Bearer), not both'),
      }),
    ).toBeUndefined();
    expect(contract.check({ method: 'GET', path: '/companies', ...refusal(403, 'forbidden', 'The API key may not read companies') })).toBeUndefined();
  });

  it('documents the RateLimit headers on the answers and the 429 of every operation a key may call, and nowhere else', () => {
    const headersOf = (response: ResponseObject | ReferenceObject | undefined): Record<string, unknown> => {
      if (response === undefined) return {};
      if (!('$ref' in response)) return response.headers ?? {};
      return document.components.responses[response.$ref.replace('#/components/responses/', '')]?.headers ?? {};
    };
    const rateLimit = { RateLimit: { $ref: '#/components/headers/RateLimit' }, 'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' } };
    for (const route of routeList()) {
      const { responses } = operationOf(route.id);
      const keys = route.auth === 'protected' && route.apiKey !== undefined && route.apiKey !== false;
      for (const status of [String(operations[route.id].success.status), '429']) {
        if (keys) expect(headersOf(responses[status]), `${route.id} ${status}`).toEqual(expect.objectContaining(rateLimit));
        else expect(headersOf(responses[status]), `${route.id} ${status}`).not.toHaveProperty('RateLimit');
      }
      expect(headersOf(responses['429']), route.id).toHaveProperty('Retry-After');
    }
    // The headers' schemas take what the rate-limit middleware sends, their examples included.
    const sent = keyRateLimitHeaders(0, 42.5);
    for (const [name, component] of [
      ['RateLimit', 'RateLimit'],
      ['RateLimit-Policy', 'RateLimitPolicy'],
    ] as const) {
      const { schema } = document.components.headers[component] as HeaderObject;
      const pattern = new RegExp(schema.pattern as string);
      expect(pattern.test(sent[name] as string), name).toBe(true);
      expect(
        (schema.examples as string[]).every((example) => pattern.test(example)),
        name,
      ).toBe(true);
    }
  });

  it('documents 401 on every protected route, and x-rate-limit exactly where the manifest limits', () => {
    for (const route of routeList()) {
      const operation = operationOf(route.id);
      expect(operation.responses['401'] !== undefined, route.id).toBe(
        route.auth === 'protected' || route.id === 'login' || route.id === 'refresh' || route.id === 'verifySecondFactor',
      );
      // One entry per limit of the manifest, each its own counter, `counts` always said.
      expect(operation['x-rate-limit'], route.id).toEqual(
        route.rateLimits?.length ? route.rateLimits.map((limit) => ({ counts: 'requests', ...limit })) : undefined,
      );
      // Every route: the deployed stage throttles all of them, last; the limited ones say their limits, and no other one points at x-rate-limit.
      const tooMany = (operation.responses['429'] as ReferenceObject).description;
      expect(tooMany, route.id).toMatch(/The stage-wide request throttling of a deployed API was exceeded\.$/);
      if (route.rateLimits?.length) expect(tooMany, route.id).toMatch(/see x-rate-limit.*Or: .*throttling/);
      else expect(tooMany, route.id).not.toContain('x-rate-limit');
    }
    expect(operationOf('login')['x-rate-limit']).toEqual([
      { per: 'email-and-ip', limit: 5, windowSeconds: 900, counts: 'attempts', scope: 'password-attempts' },
      { per: 'ip', limit: 30, windowSeconds: 900, counts: 'attempts', scope: 'sign-in-per-ip' },
    ]);
  });

  it('says each limit of a route in its 429, in the order of the manifest, with what it counts', () => {
    const described = (id: RouteId) => (operationOf(id).responses['429'] as ReferenceObject).description;

    expect(described('login')).toBe(
      'More than 5 attempts (a success clears or gives back its slot) in 900 seconds per email-and-ip (see x-rate-limit). ' +
        'Or: More than 30 attempts (a success clears or gives back its slot) in 900 seconds per ip (see x-rate-limit). ' +
        'Or: The stage-wide request throttling of a deployed API was exceeded.',
    );
    expect(described('forgotPassword')).toBe(
      'More than 3 requests in 3600 seconds per ip (see x-rate-limit). Or: More than 5 requests in 86400 seconds per email (see x-rate-limit). ' +
        'Or: The stage-wide request throttling of a deployed API was exceeded.',
    );
    expect(described('listSuppliers')).toMatch(/^More than 30 searches \(requests with `search`\) in 60 seconds per user \(see x-rate-limit\)\. Or: /);
    expect(described('stockCoverage')).toMatch(/^More than 60 reads of a window the index does not serve in 3600 seconds per user \(see x-rate-limit\)\. Or: /);
    // A route without a limit of its own: the stage's throttling alone.
    expect(described('listTenants')).toBe('The stage-wide request throttling of a deployed API was exceeded.');
    // POST /tenants: the sign-ups of an address, then the invitations of `adminEmail`, each from the manifest alone.
    expect(described('createTenant')).toBe(
      'More than 10 requests in 3600 seconds per ip (see x-rate-limit). Or: More than 3 requests in 86400 seconds per email (see x-rate-limit). ' +
        'Or: The stage-wide request throttling of a deployed API was exceeded.',
    );
  });

  it('shares one named counter between the routes that check the current password, and none with the others', () => {
    const scoped = routeList().flatMap((route) =>
      (operationOf(route.id)['x-rate-limit'] ?? []).filter((limit) => limit.scope === 'password-attempts').map(() => route.id),
    );

    expect(scoped.sort()).toEqual(['changePassword', 'login', 'startTotpEnrolment']);
  });

  it('answers every error with the problem schema of that status, with `errors` only on 400', () => {
    for (const { operation } of documentedOperations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        const name = (response as ReferenceObject).$ref.replace('#/components/responses/', '');
        const schema = document.components.responses[name]?.content?.['application/problem+json']?.schema;
        const problem = status === '400' ? 'ValidationProblem' : 'Problem';
        expect(schema, `${operation.operationId} ${status}`).toEqual({
          allOf: [
            { $ref: `#/components/schemas/${problem}` },
            { type: 'object', properties: { status: { const: Number(status) }, type: { enum: expect.any(Array) } } },
          ],
        });
      }
    }
    const required = ['type', 'title', 'status', 'detail', 'requestId'];
    expect(document.components.schemas.Problem).toEqual(expect.objectContaining({ required, additionalProperties: false }));
    expect(Object.keys(document.components.schemas.Problem?.properties as object)).not.toContain('errors');
    expect(document.components.schemas.ValidationProblem).toEqual(expect.objectContaining({ required, additionalProperties: false }));
    expect((document.components.schemas.ValidationProblem?.properties as Record<string, unknown>).errors).toEqual(
      expect.objectContaining({ type: 'array', items: { $ref: '#/components/schemas/FieldError' } }),
    );
    expect(
      contract.check({
        method: 'GET',
        path: '/auth/me',
        status: 401,
        contentType: 'application/problem+json',
        body: { ...notFound, type: 'https://problems.backoffice.dev/unauthorized', status: 401, errors: [] },
      }),
    ).toMatch(/must NOT have additional properties/);
  });

  it('documents the path parameters of every templated path and the query parameters of the contract', () => {
    expect(operationOf('revokeSession').parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', format: 'uuid' }) },
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: expect.stringContaining('24 hours'),
        schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
      },
    ]);
    expect(operationOf('listSuppliers').parameters).toEqual([
      { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1 } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
      { name: 'search', in: 'query', required: false, schema: { type: 'string', maxLength: 100 } },
    ]);
    expect(operationOf('stockCoverage').parameters).toEqual([
      { name: 'days', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 365, default: 30 } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 500 } },
      { name: 'cursor', in: 'query', required: false, schema: { type: 'string', maxLength: 1024, description: expect.stringMatching(/^Opaque/) } },
    ]);
  });

  it('offers Idempotency-Key on exactly the routes the manifest marks idempotent, with their 409 and 422', () => {
    for (const route of routeList()) {
      const op = operationOf(route.id);
      const header = (op.parameters ?? []).some((parameter) => 'name' in parameter && parameter.name === 'Idempotency-Key');
      expect(header, route.id).toBe(route.idempotent !== undefined);
      expect('422' in op.responses, route.id).toBe(route.idempotent !== undefined);
      if (route.idempotent) {
        expect(Object.keys(op.responses), route.id).toContain(String(route.idempotent.status));
        expect(Object.keys(op.responses), route.id).toContain('409');
      }
    }
  });

  it('gives the API key id parameter an example of a real key id, the same on every build', () => {
    for (const id of ['rollApiKey', 'deleteApiKey'] as const) {
      const [parameter] = operationOf(id).parameters ?? [];
      const [example] = (parameter?.schema.examples ?? []) as string[];
      expect(parameter?.name, id).toBe('id');
      expect(KEY_ID_PATTERN.test(example ?? ''), id).toBe(true);
      expect(tenantOfKeyId(example ?? ''), id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('is pure and JSON-safe: the same document on every build', () => {
    expect(buildOpenApiDocument()).toEqual(document);
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
  });

  // Builds the whole document again and compiles every schema: under 2 seconds alone, more beside other test files.
  it('compiles every response schema with Ajv in strict mode', () => {
    expect(() => createContractValidator(buildOpenApiDocument()).compileAll()).not.toThrow();
  }, 30_000);

  it.each([
    [
      'POST',
      '/companies',
      {
        name: 'Loja',
        document: '11222333000181',
        address: { street: 'Av. Paulista', number: '1000', city: 'São Paulo', state: 'SP', zipCode: '01310100' },
        settings: { a: [1, { b: null }] },
      },
      true,
    ],
    [
      'POST',
      '/companies',
      { name: 'Loja', document: '11222333000181', address: { street: 'Av. Paulista', number: '1000', city: 'São Paulo', state: 'XX', zipCode: '01310-100' } },
      false,
    ],
    ['POST', '/companies', { name: '   ', document: '11222333000181' }, false],
    ['POST', '/companies', { name: 'Loja', document: '11222333000181', status: 'BLOCKED' }, false],
    ['POST', '/companies', { name: 'Loja' }, false],
    ['POST', '/auth/login', { email: 'ana@example.com', password: 'x', rememberMe: true }, true],
    ['POST', '/auth/login', { email: 'ana@example.com' }, false],
    ['POST', '/tenants', { name: 'loja-da-ana', plan: 'FREE' }, false],
    ['POST', '/inventory/movements', { productId: UUID, warehouseId: UUID, type: 'IN', quantity: 3, unitCost: 2.5, occurredAt: TIMESTAMP }, true],
    ['PATCH', `/tenants/${UUID}`, { brandName: null, phone: '+55 11 98765-4321' }, true],
    ['PATCH', `/suppliers/${UUID}`, {}, false],
    // An API key's scopes grant at least one resource (a refinement the document states as anyOf).
    ['POST', '/api-keys', { name: 'Caixa da loja', scopes: { inventory: 'write', dashboards: 'read' }, expiresAt: '2030-01-01T00:00:00.000Z' }, true],
    ['POST', '/api-keys', { name: 'Caixa da loja', scopes: { audit: 'read', companies: 'none' } }, true],
    ['POST', '/api-keys', { name: 'Caixa da loja', scopes: {} }, false],
    ['POST', '/api-keys', { name: 'Caixa da loja', scopes: { companies: 'none', suppliers: 'none' } }, false],
    ['POST', '/api-keys', { name: 'Caixa da loja', scopes: { dashboards: 'write' } }, false],
  ])('agrees with the handler schema on %s %s %j', (method, path, body, valid) => {
    expect(contract.checkRequestBody(method, path, body) === undefined).toBe(valid);
  });

  it('states the scopes of an API key as strictly as the handler schema checks them', () => {
    const levels = [undefined, 'none', 'read', 'write'] as const;
    let accepted = 0;
    for (const companies of levels) {
      for (const inventory of levels) {
        for (const dashboards of levels) {
          const scopes = Object.fromEntries(Object.entries({ companies, inventory, dashboards }).filter(([, level]) => level !== undefined));
          const body = { name: 'Caixa da loja', scopes };
          const documented = contract.checkRequestBody('POST', '/api-keys', body) === undefined;
          expect(documented, JSON.stringify(scopes)).toBe(createApiKeyBody.safeParse(body).success);
          accepted += documented ? 1 : 0;
        }
      }
    }
    expect(accepted).toBeGreaterThan(10);
  });
});

describe('the OpenAPI document is as strict as the server', () => {
  it('describes every operation in prose', () => {
    const bare = documentedOperations()
      .filter(({ operation }) => !operation.description?.trim())
      .map(({ operation }) => operation.operationId);
    expect(bare).toEqual([]);
  });

  it("shows each handler's example request body, valid against its schema", () => {
    const shown = documentedOperations().filter(({ operation }) => operation.requestBody);
    for (const { method, path, operation } of shown) {
      const example = operation.requestBody?.content['application/json']?.example;
      const id = operation.operationId as RouteId;
      expect(example, id).toEqual((operations[id] as { example?: { body?: unknown } }).example?.body);
      if (example !== undefined) expect(contract.checkRequestBody(method, path.replace(/\{[^}]+\}/g, UUID), example), id).toBeUndefined();
    }
    expect(shown.filter(({ operation }) => operation.requestBody?.content['application/json']?.example !== undefined).length).toBeGreaterThan(15);
  });

  it('gives request bodies no `default` (a generated client would make the field required); the default is said in words', () => {
    const defaults: string[] = [];
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) return value.forEach((item, index) => walk(item, `${at}/${index}`));
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value)) {
        if (key === 'default') defaults.push(at);
        walk(child, `${at}/${key}`);
      }
    };
    for (const [name, schema] of Object.entries(document.components.schemas)) if (name.endsWith('Request')) walk(schema, name);
    expect(defaults).toEqual([]);
    expect(document.components.schemas.LoginRequest?.properties).toEqual(
      expect.objectContaining({ rememberMe: { type: 'boolean', description: 'Optional; `false` when absent.' } }),
    );
  });

  it('states the bounds hidden behind a pipe: quantities, unit costs, the UF of an address', () => {
    const schemas = document.components.schemas as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    expect(schemas.InMovementRequest?.properties.quantity).toEqual(expect.objectContaining({ type: 'number', exclusiveMinimum: 0, maximum: 1e9 }));
    expect(schemas.InMovementRequest?.properties.unitCost).toEqual(expect.objectContaining({ type: 'number', minimum: 0, maximum: 1e9 }));
    expect(schemas.AdjustmentMovementRequest?.properties.quantity).toEqual(expect.objectContaining({ type: 'number', minimum: 0, maximum: 1e9 }));
    expect(schemas.AddressInput?.properties.state).toEqual(expect.objectContaining({ type: 'string', enum: expect.arrayContaining(['SP', 'DF', 'TO']) }));
    expect((schemas.AddressInput?.properties.state?.enum as string[]).length).toBe(27);
  });

  it('states the per-type movement rules as a union discriminated on type', () => {
    const ref = (name: string) => `#/components/schemas/${name}`;
    expect(document.components.schemas.CreateMovementRequest).toEqual({
      type: 'object',
      description: expect.any(String),
      oneOf: ['InMovementRequest', 'OutMovementRequest', 'SaleMovementRequest', 'AdjustmentMovementRequest'].map((name) => ({ $ref: ref(name) })),
      discriminator: {
        propertyName: 'type',
        mapping: {
          IN: ref('InMovementRequest'),
          OUT: ref('OutMovementRequest'),
          SALE: ref('SaleMovementRequest'),
          ADJUSTMENT: ref('AdjustmentMovementRequest'),
        },
      },
    });
  });

  it('accepts exactly the movements the handler schema accepts, type by type', () => {
    const base = { productId: UUID, warehouseId: UUID, occurredAt: TIMESTAMP };
    const quantities = [-1, 0, 0.001, 0.0005, 24, 1e9, 1e9 + 1];
    const costs = [undefined, -0.5, 0, 18.9, 0.00001, 1e9 + 1];
    let checked = 0;
    for (const type of MOVEMENT_TYPES) {
      for (const quantity of quantities) {
        for (const unitCost of costs) {
          const body = { ...base, type, quantity, ...(unitCost === undefined ? {} : { unitCost }) };
          const parsed = movementBody.safeParse(body);
          const documented = contract.checkRequestBody('POST', '/inventory/movements', body) === undefined;
          // Decimal places are stated in words only (`multipleOf: 0.0001` would make JSON Schema
          // validators refuse 18.9 for binary-float reasons): the one rule the document may not enforce.
          const onlyDecimals = !parsed.success && parsed.error.issues.every((issue) => /decimal places/.test(issue.message));
          expect(documented, JSON.stringify(body)).toBe(parsed.success || onlyDecimals);
          checked += parsed.success ? 1 : 0;
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  it('states the rule of a required text field as a pattern that agrees with the field schema', () => {
    const pattern = new RegExp(REQUIRED_TEXT_PATTERN, 'u');
    const field = requiredText(100_000);
    const blanksAndControls = fc.constantFrom(
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\u2028',
      '\u0000',
      '\u0007',
      '\u0085',
      '\u202e',
      '\u2067',
      '\ufffd',
      '\ud800',
      '\udc00',
      '\ufeff',
      'a',
      'é',
      '😀',
    );
    const text = fc.oneof(
      fc.string({ unit: 'grapheme-composite' }),
      fc.array(fc.oneof(blanksAndControls, fc.string({ maxLength: 3 }))).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, (value) => {
        expect(pattern.test(value), JSON.stringify(value)).toBe(field.safeParse(value).success);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('the contract validator', () => {
  it('accepts a response that matches its route and status', () => {
    expect(contract.check({ method: 'GET', path: '/auth/me', status: 200, contentType: 'application/json', body: USER })).toBeUndefined();
    expect(
      contract.check({ method: 'POST', path: '/auth/login', status: 200, contentType: 'application/json; charset=utf-8', body: { user: USER } }),
    ).toBeUndefined();
    expect(
      contract.check({ method: 'PATCH', path: `/companies/${UUID}`, status: 404, contentType: 'application/problem+json', body: notFound }),
    ).toBeUndefined();
  });

  it('names an undocumented field, a missing one and the route', () => {
    const violation = contract.check({
      method: 'GET',
      path: '/auth/me',
      status: 200,
      contentType: 'application/json',
      body: { ...USER, role: 'ADMIN', tenantId: undefined },
    });
    expect(violation).toMatch(/^GET \/auth\/me answered 200 \(me\): the body does not match the OpenAPI document: /);
    expect(violation).toContain("must have required property 'tenantId'");
    expect(violation).toContain('must NOT have additional properties');
  });

  it('refuses a status the route does not document, the wrong content type and a problem whose status differs', () => {
    expect(contract.check({ method: 'GET', path: '/auth/me', status: 404, contentType: 'application/problem+json', body: notFound })).toMatch(
      /a status the OpenAPI document does not list for me/,
    );
    expect(contract.check({ method: 'GET', path: '/auth/me', status: 200, contentType: 'text/plain', body: USER })).toMatch(/Content-Type text\/plain/);
    expect(
      contract.check({ method: 'PATCH', path: `/companies/${UUID}`, status: 404, contentType: 'application/problem+json', body: { ...notFound, status: 409 } }),
    ).toMatch(/body\/status must be equal to constant/);
  });

  it('holds a response of no route (unknown path or method) to the problem schema', () => {
    expect(contract.check({ method: 'GET', path: '/no/such/route', status: 404, contentType: 'application/problem+json', body: notFound })).toBeUndefined();
    expect(contract.check({ method: 'DELETE', path: '/tenants', status: 404, contentType: 'application/json', body: notFound })).toMatch(
      /not application\/problem\+json/,
    );
    expect(contract.check({ method: 'OPTIONS', path: '/tenants', status: 204, contentType: null, body: undefined })).toBeUndefined();
  });
});

describe('the documentation routes of npm start', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer(
      withDocs((_request, response) => {
        response.writeHead(418, { 'Content-Type': 'text/plain' });
        response.end('the API');
      }),
    );
    await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolveClose) => server.close(() => resolveClose())));

  it('serves the document with the origin it is served from as its only server, whatever the port', async () => {
    const response = await fetch(`${base}/openapi.json`);
    const body = (await response.json()) as typeof document;

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(base).not.toBe('http://127.0.0.1:3000');
    expect(body.servers).toEqual([{ url: base, description: expect.any(String) }]);
    expect(JSON.stringify(body)).not.toContain(':3000');
    expect(body.paths).toEqual(document.paths);
    expect(body.components).toEqual(document.components);
  });

  it('serves the reference page and only the renderer files it loads, from node_modules', async () => {
    const page = await fetch(`${base}/docs`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(html).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);

    const bundle = await fetch(`${base}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect(await (await fetch(`${base}/docs/init.js`)).text()).toContain("url: '/openapi.json'");
    expect((await fetch(`${base}/docs/swagger-ui.css`)).headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect((await fetch(`${base}/docs/package.json`)).status).toBe(404);
    expect((await fetch(`${base}/docs/..%2Fpackage.json`)).status).toBe(404);
  });

  it('hands every other request to the API', async () => {
    for (const [method, path] of [
      ['GET', '/companies'],
      ['POST', '/openapi.json'],
      ['GET', '/docsx'],
      ['GET', '/openapi.json/x'],
    ]) {
      const response = await fetch(`${base}${path}`, { method });
      expect(response.status, `${method} ${path}`).toBe(418);
      expect(await response.text()).toBe('the API');
    }
  });
});
