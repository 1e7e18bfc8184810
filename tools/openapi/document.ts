import * as z from 'zod';
import { API_KEY_PATTERN, newKeyId } from '../../lib/api-keys/format';
import { apiKeyIdPath, apiKeyScopesBody, createApiKeyBody } from '../../lib/api-keys/schemas';
import { deliveryIdOf } from '../../lib/webhooks/delivery-id';
import { deliveryIdPath } from '../../lib/webhooks/delivery-schemas';
import { API_KEY_RESOURCES, READ_ONLY_RESOURCES } from '../../lib/domain/key-scopes';
import { documentSchema } from '../../lib/domain/documents';
import { cursorParam } from '../../lib/domain/cursor';
import { emailField, httpsUrlField, TEXT_PATTERN_META, timeBound } from '../../lib/domain/fields';
import { phoneSchema } from '../../lib/domain/phones';
import {
  type AppError,
  BadRequest,
  Conflict,
  IdempotencyKeyInUse,
  IdempotencyKeyReused,
  Forbidden,
  MfaEnrolmentRequired,
  NotFound,
  PayloadTooLarge,
  PreconditionFailed,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
  ValidationError,
} from '../../lib/errors';
import { MAX_BODY_BYTES } from '../../lib/http/middleware/body';
import { API_KEY_LIMIT_SCOPE, keyRateLimitHeaders } from '../../lib/http/middleware/rate-limit';
import { PROBLEM_CONTENT_TYPE, problemFor } from '../../lib/http/problem';
import type { RateLimit } from '../../lib/rate-limit';
import { API_KEY_RATE_LIMIT, routeList, type Route, type RouteId } from '../../lib/routes';
import {
  documentedAs,
  operations,
  requestComponents,
  responseComponents,
  type CookieEffect,
  type ErrorStatus,
  type OperationSpec,
  type Schema,
} from './operations';
import type {
  ApiKeyScopeExtension,
  HeaderObject,
  HttpVerb,
  JsonSchema,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  ServerObject,
} from './types';

/**
 * The OpenAPI 3.1 document of the whole API, generated from the route manifest
 * (`lib/routes/`: methods, paths, public or protected, rate limits) and from each
 * handler's own file (`handler.input`, the zod schemas it validates with, and `handler.docs`,
 * its answer and its errors; `operations.ts` reads them and names the components). zod converts
 * the schemas itself: request bodies and parameters on the input side (what a client
 * sends), responses on the output side (what the service answers).
 *
 * `npm run openapi` writes it, `npm start` serves it at GET /openapi.json with a reference
 * page at GET /docs, and the integration tests hold every response to it.
 */

export const OPENAPI_VERSION = '3.1.0';
/** Whom to ask: the team that keeps this repository (README.md). */
const CONTACT = { name: 'Back-office API maintainers' };
export const API_VERSION = '1.0.0';
export const JSON_CONTENT_TYPE = 'application/json';

const SCHEMA_REF = '#/components/schemas/';
const RESPONSE_REF = '#/components/responses/';
export const ACCESS_COOKIE_SCHEME = 'accessCookie';
export const REFRESH_COOKIE_SCHEME = 'refreshCookie';
export const API_KEY_SCHEME = 'apiKey';
/** The 429 of an operation an API key may call: the problem with the key's RateLimit headers. */
const KEY_TOO_MANY_REQUESTS = 'TooManyRequestsWithRateLimit';
const HEADER_REF = '#/components/headers/';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** `npm start` and a deployed stage; `buildOpenApiDocument({ servers })` replaces them. */
export const DEFAULT_SERVERS: ServerObject[] = [
  { url: 'http://127.0.0.1:3000', description: 'Local API (`npm start`)' },
  {
    url: 'https://{apiId}.execute-api.{region}.amazonaws.com/{stage}',
    description: 'A deployed stage',
    variables: {
      apiId: { default: 'api-id', description: 'The REST API id (stack output)' },
      region: { default: 'us-east-1' },
      stage: { default: 'prod' },
    },
  },
];

const WEBHOOKS_TAG = {
  name: 'Webhooks',
  description:
    "Endpoints that receive the tenant's domain events, signed as Standard Webhooks says: registered, changed, tested, their secrets rotated, and their deliveries, which can be sent again.",
};

/** One tag per area, taken from a path's first segment (several segments may share one). */
const TAGS: Record<string, { name: string; description: string }> = {
  tenants: { name: 'Tenants', description: 'Merchants: sign-up, the platform list, profile updates.' },
  auth: { name: 'Authentication', description: 'Registration, login, cookie sessions, refresh, password recovery, invitations.' },
  users: { name: 'Users', description: "The tenant's users, administered by its administrators: the list, roles, removal." },
  companies: { name: 'Companies', description: "Fiscal entities of the caller's tenant and their status lifecycle." },
  suppliers: { name: 'Suppliers', description: "The tenant's suppliers: create, update, a searchable page." },
  inventory: { name: 'Inventory', description: 'Warehouses, products, stock movements and the two dashboards.' },
  purchasing: { name: 'Purchasing', description: "Purchase suggestions from the coverage, the suppliers' terms and what is on order." },
  'purchase-orders': {
    name: 'Purchase orders',
    description: 'Purchase orders to suppliers: numbered per company, DRAFT to SENT to received, and what they keep on order.',
  },
  'audit-events': { name: 'Audit', description: "Who did what and when: the tenant's audit trail, and the platform's for its administrators." },
  events: { name: 'Events', description: "The tenant's domain events of the last 30 days, for a receiver catching up." },
  'api-keys': {
    name: 'API keys',
    description: 'Keys for the systems that feed the back-office (points of sale, online stores, ERPs): scoped, rolled, revoked.',
  },
  'webhook-endpoints': WEBHOOKS_TAG,
  'webhook-deliveries': WEBHOOKS_TAG,
  imports: {
    name: 'Imports',
    description:
      "Bulk CSV imports of suppliers and products as spreadsheets write them, checked row by row with the API's rules: dry runs and real ones, followed as jobs.",
  },
  exports: {
    name: 'Exports',
    description:
      'CSV exports for a spreadsheet of suppliers, products with their stock, the stock history and the audit trail of a period, written as jobs and downloaded by a short-lived link.',
  },
};

const DESCRIPTION = `A multi-tenant commerce back-office API. Every payload is JSON; timestamps are ISO 8601 UTC with milliseconds.

**Authentication.** Browser clients authenticate with two HttpOnly, Secure, SameSite=Strict cookies set by
register, login and refresh: \`accessToken\` (15 minutes, every path) and \`refreshToken\` (only sent to \`/auth\`).
Send requests with credentials (\`fetch(url, { credentials: 'include' })\`). When a protected request with them answers
401, call \`POST /auth/refresh\` once and retry; if the refresh answers 401 too, the session is over.

**CORS and CSRF.** Only the configured origins get CORS grants (with credentials). A state-changing request
whose \`Origin\` is present and not allowed, or that carries \`Sec-Fetch-Site: cross-site\`, is refused with 403.

**Errors.** Every error is an RFC 9457 problem document (\`application/problem+json\`) with \`type\`, \`title\`,
\`status\`, \`detail\`, \`requestId\` and, for validation errors, \`errors: [{ field, message }]\`. 429 and 503
carry \`Retry-After\` (seconds). Unknown body fields and unknown query parameters are 400.

**API keys.** Servers (a point of sale, an online store, an ERP) call the operations whose \`security\` lists
\`apiKey\` with a key a tenant administrator made (POST /api-keys) instead of the cookies:
\`Authorization: Bearer bo_live_…\` (\`bo_test_…\` on \`npm start\`). Each such operation names in \`x-api-key-scope\`
what a key needs (\`read\` or \`write\` of a resource; \`write\` includes \`read\`); a key its scopes or its company
do not let in, or a key on a cookie-only operation, gets 403. Keys are for servers: a request with an \`Origin\` or
\`Sec-Fetch-Site\` header is refused (401), and one with both the cookie and a key is 400. A 401 to a key is final: nothing is refreshed.
A key's successful answers carry \`RateLimit-Policy\` and \`RateLimit\` (${API_KEY_RATE_LIMIT.limit} requests per
${API_KEY_RATE_LIMIT.windowSeconds} seconds per key, and what is left); past them, 429 with \`Retry-After\` and both.

**Rate limits** are listed per operation in the \`x-rate-limit\` extension: \`limit\` requests per
\`windowSeconds\`, counted per \`ip\`, per \`user\` or per \`email-and-ip\`; \`counts: failures\` counts only failed
attempts (login). Operations whose extension names the same \`scope\` share one counter (the session routes).

**Audit trail.** Every operation that writes records one audit entry per successful request, in the
same transaction as its change; \`x-audit-actions\` lists the actions it may record (see GET /audit-events).`;

/** What each error status means, the error class behind it and its response component. */
const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; errors: (AppError | Error)[] }> = {
  400: {
    name: 'BadRequest',
    description: 'Invalid input, bad JSON, a bad query or path parameter, or both the session cookie and an API key.',
    errors: [new ValidationError([]), new BadRequest('')],
  },
  401: { name: 'Unauthorized', description: 'No, invalid, expired or revoked access token or API key.', errors: [new Unauthorized()] },
  403: {
    name: 'Forbidden',
    description:
      'Authenticated but not allowed (an API key included: its scopes, its company or a cookie-only operation), or a cross-origin state-changing request.',
    errors: [new Forbidden(), new MfaEnrolmentRequired()],
  },
  404: { name: 'NotFound', description: "No such resource in the caller's tenant.", errors: [new NotFound()] },
  409: {
    name: 'Conflict',
    description:
      'A unique value is taken, the change is not allowed in the current state, or a request with the same Idempotency-Key is still running (then with `Retry-After`).',
    errors: [new Conflict(''), new IdempotencyKeyInUse()],
  },
  412: {
    name: 'PreconditionFailed',
    description: 'The `If-Match` names a version the resource no longer has: someone changed it since it was read. Nothing was changed; read it again.',
    errors: [new PreconditionFailed('')],
  },
  413: { name: 'PayloadTooLarge', description: `The request body is larger than ${MAX_BODY_BYTES} bytes.`, errors: [new PayloadTooLarge('')] },
  415: { name: 'UnsupportedMediaType', description: 'The request body is not `application/json`.', errors: [new UnsupportedMediaType('')] },
  422: {
    name: 'IdempotencyKeyReused',
    description: 'The Idempotency-Key was first used for a different request (method, path or body).',
    errors: [new IdempotencyKeyReused()],
  },
  429: { name: 'TooManyRequests', description: 'The rate limit is reached; retry after `Retry-After` seconds.', errors: [new TooManyRequests(1)] },
  500: { name: 'InternalServerError', description: 'An unexpected error; the body carries no internals.', errors: [new Error('unexpected')] },
  503: {
    name: 'ServiceUnavailable',
    description: 'The data store is busy or unavailable; nothing was half-written. Retry after `Retry-After` seconds.',
    errors: [new ServiceUnavailable()],
  },
};

const RETRY_AFTER_STATUSES = new Set<ErrorStatus>([409, 429, 503]);

/**
 * Documentation the zod schemas cannot carry: the shared field schemas validate with code
 * (check digits, libphonenumber), so the document states their input format in words and a
 * pattern. Applied wherever zod meets these schema objects.
 */
const FIELD_HINTS = new Map<unknown, JsonSchema>([
  [
    documentSchema,
    {
      pattern: '^(?:[0-9]{11}|[0-9A-Za-z]{12}[0-9]{2})$',
      description: 'A CPF (11 digits) or a CNPJ (14 characters, letters allowed in the first 12, upper-cased) without punctuation; check digits are validated.',
      examples: ['11222333000181'],
    },
  ],
  [
    phoneSchema,
    {
      pattern: '^\\+[0-9 .()-]+$',
      description: 'International format with a leading plus (spaces, dots, dashes and parentheses allowed); returned as E.164.',
      examples: ['+55 11 98765-4321'],
    },
  ],
  [emailField, { format: 'email', description: 'Compared case-insensitively; stored lower-cased.' }],
  [httpsUrlField, { pattern: '^https://', examples: ['https://cdn.example.com/loja-da-ana/logo.png'] }],
  // A key id is base62 of a tenant's UUID, a second and 2 random characters (fixed here: the document is pure).
  [apiKeyIdPath.shape.id, { examples: [`${newKeyId('3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60', Date.parse('2026-11-21T10:00:00.000Z')).slice(0, -2)}Ab`] }],
  [
    deliveryIdPath.shape.id,
    { examples: [deliveryIdOf('7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d', '2026-11-26T13:05:09.412Z', '3f1c2b9e-7a4d-4e8f-9b2a-5c6d7e8f9a0b')] },
  ],
  // An expiry is in the future (the service refuses another): an example that stays there.
  [createApiKeyBody.shape.expiresAt._zod.def.innerType, { examples: ['2030-01-01T00:00:00.000Z'] }],
  [
    apiKeyScopesBody,
    {
      // The refinement "at least one resource read or write", which zod cannot convert.
      anyOf: API_KEY_RESOURCES.map((resource) => ({
        required: [resource],
        properties: { [resource]: { enum: READ_ONLY_RESOURCES.includes(resource) ? ['read'] : ['read', 'write'] } },
      })),
      description: 'None, read or write per resource (dashboards and audit: none or read); at least one granted `read` or `write`. An absent resource is none.',
      examples: [{ inventory: 'write', dashboards: 'read' }],
    },
  ],
]);

/**
 * Examples of the formats zod writes without one, so that a reader (and a tool that makes up
 * sample requests from the schemas, as Swagger UI does) sees realistic values: lower-case
 * UUIDs, dates of this era, not a string made up from the pattern.
 */
const FORMAT_EXAMPLES: Record<string, unknown[]> = {
  uuid: ['3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60'],
  'date-time': ['2026-11-21T10:00:00.000Z'],
  email: ['ana@example.com'],
};

/**
 * The same for query parameters, whose schemas the document shows on the output side (the
 * parsed value): a list's cursor, and the time bounds, which a refinement checks.
 */
const PARAMETER_HINTS = new Map<unknown, JsonSchema>([
  [
    cursorParam._zod.def.innerType,
    { description: "Opaque: the `cursor` of the previous page's `Link` header (or `nextCursor`), issued for this list and these filters." },
  ],
  [
    timeBound,
    {
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2}))?$',
      description: 'Inclusive: a day (YYYY-MM-DD, the whole day in the business time zone) or an ISO 8601 date-time with its offset.',
      examples: ['2026-11-01'],
    },
  ],
]);

type JsonSchemaParams = NonNullable<Parameters<typeof z.toJSONSchema>[1]>;

const conversion = (io: 'input' | 'output'): JsonSchemaParams => ({
  target: 'draft-2020-12',
  io,
  // Transforms (trimming, normalizing documents and phones) only exist on the output side of
  // a request schema, which the document never shows; any other one would show as `{}`.
  unrepresentable: 'any',
  override: ({ zodSchema, jsonSchema }) => {
    const hint = FIELD_HINTS.get(zodSchema);
    if (hint && io === 'input') Object.assign(jsonSchema, hint);
    const parameterHint = PARAMETER_HINTS.get(zodSchema);
    if (parameterHint) Object.assign(jsonSchema, parameterHint);
    // A required text field's rule (trimmed, not blank, no control characters), beside a
    // pattern of its own if it has one (SKUs); a response shows what was stored, so no pattern.
    const textPattern = jsonSchema[TEXT_PATTERN_META];
    delete jsonSchema[TEXT_PATTERN_META];
    if (typeof textPattern === 'string' && io === 'input') {
      if (typeof jsonSchema.pattern === 'string') jsonSchema.allOf = [{ pattern: textPattern }];
      else jsonSchema.pattern = textPattern;
    }
    const example = typeof jsonSchema.format === 'string' ? FORMAT_EXAMPLES[jsonSchema.format] : undefined;
    if (example && jsonSchema.examples === undefined) jsonSchema.examples = example;
  },
});

/** Drop what only makes sense for a standalone JSON Schema document. */
function asComponent(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** Convert a registry of named schemas into `components.schemas` entries. */
function convertComponents(registry: typeof requestComponents, io: 'input' | 'output'): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, { ...conversion(io), uri: (id) => `${SCHEMA_REF}${id}` });
  const result: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(schemas)) result[name] = asComponent(schema);
  // zod reads only `id` from the registry it converts (other metadata from the global one):
  // the registry's descriptions are the components' own.
  for (const [name, schema] of registry._idmap) {
    const description = registry.get(schema)?.description;
    if (description && result[name]) result[name] = { description, ...result[name] };
  }
  return result;
}

/**
 * PATCH bodies refine "at least one field", which zod cannot convert (a refinement is code);
 * the document says it as `minProperties: 1` on the body's component.
 */
function requireOneField(schemas: Record<string, JsonSchema>): void {
  for (const spec of Object.values(operations)) {
    const body = spec.request?.body;
    const name = body && spec.request?.atLeastOneField ? requestComponents.get(documentedAs.get(body) ?? body)?.id : undefined;
    const schema = name ? schemas[name] : undefined;
    if (schema) schema.minProperties = 1;
  }
}

/**
 * A request body's property with a `default` is optional to send; a generated client reads a
 * `default` as "always there" (openapi-typescript makes it required), which holds for a
 * response, not for a request. So request schemas say their defaults in words.
 */
function describeDefaults(schemas: Record<string, JsonSchema>): void {
  for (const schema of Object.values(schemas)) {
    for (const property of Object.values(propertiesOf(schema))) {
      if (!('default' in property)) continue;
      const { default: value } = property;
      delete property.default;
      const said = `Optional; \`${JSON.stringify(value)}\` when absent.`;
      property.description = typeof property.description === 'string' ? `${property.description} ${said}` : said;
    }
  }
}

/**
 * A union of objects that each fix one required property to a constant (the movement types)
 * gets an OpenAPI `discriminator` on it, so that readers and generators pick the branch by it.
 */
function addDiscriminators(schemas: Record<string, JsonSchema>): void {
  for (const schema of Object.values(schemas)) {
    const branches = Array.isArray(schema.oneOf) ? (schema.oneOf as JsonSchema[]) : [];
    const targets = branches.map((branch) => (typeof branch.$ref === 'string' ? schemas[branch.$ref.slice(SCHEMA_REF.length)] : undefined));
    const first = targets[0];
    if (!first || targets.some((target) => !target)) continue;
    const property = [...requiredOf(first)].find((name) =>
      targets.every((target) => target && requiredOf(target).has(name) && 'const' in (propertiesOf(target)[name] ?? {})),
    );
    if (!property) continue;
    const mapping: Record<string, string> = {};
    branches.forEach((branch, index) => {
      mapping[String(propertiesOf(targets[index] as JsonSchema)[property]?.const)] = branch.$ref as string;
    });
    schema.type = 'object';
    schema.discriminator = { propertyName: property, mapping };
  }
}

/**
 * Any JSON value (company settings). Written as the recursive union it is (`z.json()`), the
 * array branch refers to the schema itself, which TypeScript types generated from the document
 * cannot express (openapi-typescript's output fails with TS2502); an empty schema says the same.
 */
const JSON_VALUE_SCHEMA: JsonSchema = { description: 'Any JSON value: an object, an array, a string, a number, a boolean or null.' };

function convertInline(schema: Schema, io: 'input' | 'output'): JsonSchema {
  return asComponent(z.toJSONSchema(schema, conversion(io)));
}

function componentRef(registry: typeof requestComponents, schema: Schema, routeId: RouteId): ReferenceObject {
  const name = registry.get(registry === requestComponents ? (documentedAs.get(schema) ?? schema) : schema)?.id;
  if (!name) throw new Error(`openapi: a schema of route ${routeId} has no component name`);
  return { $ref: `${SCHEMA_REF}${name}` };
}

const pascal = (id: string) => `${id.charAt(0).toUpperCase()}${id.slice(1)}`;

/**
 * A body schema that `operations.ts` does not name is named after the first route that
 * uses it (`<RouteId>Request`, `<RouteId>Response`), so a new route needs no entry there.
 */
function nameUnnamedSchemas(): void {
  for (const [id, spec] of Object.entries(operations) as [RouteId, OperationSpec][]) {
    const body = spec.request?.body;
    if (body && !requestComponents.has(documentedAs.get(body) ?? body)) requestComponents.add(body, { id: `${pascal(id)}Request` });
    const response = spec.success.body;
    if (response && !responseComponents.has(response)) responseComponents.add(response, { id: `${pascal(id)}Response` });
  }
}

const propertiesOf = (schema: JsonSchema) => (schema.properties ?? {}) as Record<string, JsonSchema>;
const requiredOf = (schema: JsonSchema) => new Set((schema.required ?? []) as string[]);

/** A digits-only pattern: the parsed value of such a parameter is a whole number. */
const DIGITS_ONLY = new Set(['^[0-9]+$', '^\\d+$']);

/**
 * Query parameters. A query value is always text on the wire, so the schemas read strings
 * and parse them; a parameter's schema in OpenAPI is the value after that parsing, which is
 * the output side (type, range, default). Whether it is required comes from the input side.
 */
function queryParameters(query: Schema): ParameterObject[] {
  const input = convertInline(query, 'input');
  const output = propertiesOf(convertInline(query, 'output'));
  const required = requiredOf(input);
  return Object.entries(propertiesOf(input)).map(([name, raw]) => {
    const schema = { ...(output[name] ?? raw) };
    if (typeof raw.pattern === 'string' && DIGITS_ONLY.has(raw.pattern) && schema.type === 'number') schema.type = 'integer';
    return { name, in: 'query', required: required.has(name), schema };
  });
}

function pathParameters(route: Route & { id: RouteId }, path: Schema | undefined): ParameterObject[] {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string);
  const properties = path ? propertiesOf(convertInline(path, 'input')) : {};
  const documented = Object.keys(properties);
  if (names.join() !== documented.join()) {
    throw new Error(`openapi: ${route.id} has path parameters [${names.join()}] but its path schema has [${documented.join()}]`);
  }
  return names.map((name) => ({ name, in: 'path', required: true, schema: properties[name] as JsonSchema }));
}

/** What a limit counts, in the 429's words (lib/rate-limit `RateLimit.counts`). */
const COUNTED: Record<NonNullable<RateLimit['counts']>, string> = {
  requests: 'requests',
  attempts: 'attempts (a success clears or gives back its slot)',
  searches: 'searches (requests with `search`)',
  'full-reads': 'reads of a window the index does not serve',
};

/** What an API key needs to call a route (its manifest entry's `apiKey`); undefined for a public or a cookie-only route. */
export const keyScopeOf = (route: Route): ApiKeyScopeExtension | undefined => (route.auth === 'protected' && route.apiKey ? route.apiKey : undefined);

/**
 * What a key limited to one company meets on a company route (lib/api-keys/authorize.ts): the
 * 403 and the description's words; nothing on the list.
 */
function companyKeyLimit(route: Route): { refusal: string; note: string } | undefined {
  if (keyScopeOf(route)?.resource !== 'companies') return undefined;
  if (route.path.includes('{id}')) return { refusal: 'An API key limited to another company.', note: 'A key limited to one company reaches only that one.' };
  if (route.method === 'POST')
    return { refusal: 'An API key limited to one company: it cannot create another.', note: 'A key limited to one company cannot create another.' };
  return undefined;
}

/**
 * Every error status a route can answer: its own (from `operations.ts`) and those of the
 * handler chain every function shares (`lib/http/handler.ts`), of the authorizer (the
 * protected routes: a cookie or an API key) and of the gateway in front.
 */
export function errorStatuses(route: Route, spec: OperationSpec): Map<ErrorStatus, string> {
  const statuses = new Map<ErrorStatus, string>();
  const add = (status: ErrorStatus, why: string) => {
    const known = statuses.get(status);
    statuses.set(status, known ? `${known} Or: ${why}` : why);
  };
  const request = spec.request ?? {};
  const protectedRoute = route.auth === 'protected';
  const scope = keyScopeOf(route);
  if (request.body || request.query || request.path) add(400, 'The request is invalid; `errors` names each field.');
  if (protectedRoute) add(400, 'Both the session cookie and an API key (`Authorization: Bearer`) were sent: send one.');
  if (protectedRoute) add(401, 'No, invalid, expired or revoked access token: refresh and retry once.');
  if (scope) {
    add(
      401,
      'With an API key: not a well-formed key (format, checksum), unknown, expired or revoked, of the other environment, of a tenant that is not active, or sent with an `Origin` or `Sec-Fetch-Site` header (keys are for servers). A key is not refreshed.',
    );
  } else if (protectedRoute) {
    add(401, 'An `Authorization` header that is not `Bearer <API key>`, or an API key sent with an `Origin` or `Sec-Fetch-Site` header.');
  }
  for (const [status, why] of Object.entries<string>(spec.errors)) add(Number(status) as ErrorStatus, why);
  if (STATE_CHANGING.has(route.method)) add(403, 'A cross-origin request: `Origin` not allowed, or `Sec-Fetch-Site: cross-site`.');
  if (protectedRoute && !route.openDuringMfaEnrolment)
    add(403, 'The tenant requires a second factor the caller has not enrolled yet (`mfa-enrolment-required`): only enrolment is open.');
  if (scope) {
    add(403, `An API key without \`${scope.access}\` on \`${scope.resource}\` ("The API key may not ${scope.access} ${scope.resource}").`);
    const company = companyKeyLimit(route);
    if (company) add(403, company.refusal);
  } else if (protectedRoute) {
    add(403, 'An API key: this operation takes the session cookie only.');
  }
  add(413, ERROR_RESPONSES[413].description);
  add(415, ERROR_RESPONSES[415].description);
  if (route.idempotent) {
    add(409, 'A request with the same Idempotency-Key is still running: retry after `Retry-After` seconds.');
    add(422, ERROR_RESPONSES[422].description);
  }
  for (const { limit, windowSeconds, per, counts = 'requests' } of route.rateLimits ?? []) {
    add(429, `More than ${limit} ${COUNTED[counts]} in ${windowSeconds} seconds per ${per} (see x-rate-limit).`);
  }
  if (scope)
    add(
      429,
      `More than ${API_KEY_RATE_LIMIT.limit} requests in ${API_KEY_RATE_LIMIT.windowSeconds} seconds per API key, on every operation together (see the RateLimit headers).`,
    );
  // The deployed stage throttles every route (API Gateway's THROTTLED gateway response).
  add(429, 'The stage-wide request throttling of a deployed API was exceeded.');
  add(500, ERROR_RESPONSES[500].description);
  add(503, ERROR_RESPONSES[503].description);
  return new Map([...statuses].sort(([a], [b]) => a - b));
}

const COOKIE_HEADERS: Record<CookieEffect, string> = {
  issued:
    '`accessToken` (HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=900) and `refreshToken` (HttpOnly; Secure; SameSite=Strict; Path=/auth; persistent with rememberMe).',
  cleared: 'Both cookies cleared: empty, Max-Age=0, the same attributes.',
  'cleared-if-current': 'When the revoked session is the one in use, both cookies cleared: empty, Max-Age=0.',
};

const IDEMPOTENCY_KEY_PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same method, path and body within 24 hours gets the first answer again (with `Idempotent-Replayed: true`) and writes nothing; with another request, 422; while the first is still running, 409. Scoped to the signed-in user, or to the API key (the client IP on POST /tenants). An answer that is an error is not kept: the key can be used again.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

/** The RateLimit header fields of an answer to an API key (lib/http/middleware/rate-limit.ts). */
const KEY_RATE_LIMIT_HEADERS: Record<string, ReferenceObject> = {
  RateLimit: { $ref: `${HEADER_REF}RateLimit` },
  'RateLimit-Policy': { $ref: `${HEADER_REF}RateLimitPolicy` },
};

const KEY_HEADER_EXAMPLE = keyRateLimitHeaders(API_KEY_RATE_LIMIT.limit - 1, API_KEY_RATE_LIMIT.windowSeconds);

/** `components.headers`: Retry-After, and the RateLimit fields of the answers to an API key. */
const HEADERS: Record<string, HeaderObject> = {
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } },
  RateLimit: {
    description: `On an answer to an API key: what is left of the key's window, \`r\` requests for \`t\` more seconds (the RateLimit header fields of draft-ietf-httpapi-ratelimit-headers). Absent on cookie sessions.`,
    schema: { type: 'string', pattern: `^"${API_KEY_LIMIT_SCOPE}";r=[0-9]+;t=[0-9]+$`, examples: [KEY_HEADER_EXAMPLE.RateLimit] },
  },
  RateLimitPolicy: {
    description: `On an answer to an API key: the key's window, \`q\` requests per \`w\` seconds (${API_KEY_RATE_LIMIT.limit} per ${API_KEY_RATE_LIMIT.windowSeconds}), shared by every operation. Absent on cookie sessions.`,
    schema: { type: 'string', pattern: `^"${API_KEY_LIMIT_SCOPE}";q=[0-9]+;w=[0-9]+$`, examples: [KEY_HEADER_EXAMPLE['RateLimit-Policy']] },
  },
};

function successResponse(route: Route & { id: RouteId }, spec: OperationSpec): ResponseObject {
  const response: ResponseObject = { description: spec.success.description };
  if (spec.success.body) {
    response.content = { [JSON_CONTENT_TYPE]: { schema: { ...componentRef(responseComponents, spec.success.body, route.id) } } };
  }
  if (spec.success.cookies) {
    response.headers = { 'Set-Cookie': { description: COOKIE_HEADERS[spec.success.cookies], schema: { type: 'string' } } };
  }
  if (spec.linkPages) {
    response.headers = {
      ...response.headers,
      Link: {
        description:
          'Present when another page follows: `<path?limit=…&cursor=…>; rel="next"` (RFC 8288), the same list\'s next page. Absent on the last page.',
        schema: { type: 'string' },
      },
    };
  }
  if (spec.responseHeaders) response.headers = { ...response.headers, ...spec.responseHeaders };
  if (keyScopeOf(route)) response.headers = { ...response.headers, ...KEY_RATE_LIMIT_HEADERS };
  if (route.idempotent) {
    response.headers = {
      ...response.headers,
      'Idempotent-Replayed': {
        description: "`true` when this is the stored first answer of the request's Idempotency-Key.",
        schema: { type: 'string', enum: ['true'] },
      },
    };
  }
  return response;
}

/** The line of a protected operation's description that says what an API key may do there. */
function keyNoteOf(route: Route): string | undefined {
  if (route.auth !== 'protected') return undefined;
  const scope = keyScopeOf(route);
  if (!scope) return '**API keys:** not accepted; this operation takes the session cookie only (a key gets 403).';
  const levels = scope.access === 'read' ? '`read` or `write`' : '`write`';
  const company = companyKeyLimit(route);
  return `**API keys:** a key holding ${levels} of \`${scope.resource}\` may call it (\`x-api-key-scope\`); other keys get 403.${company ? ` ${company.note}` : ''}`;
}

function operation(route: Route & { id: RouteId }): OperationObject {
  const spec: OperationSpec = operations[route.id];
  const tag = TAGS[route.path.split('/')[1] ?? ''];
  if (!tag) throw new Error(`openapi: no tag for ${route.path}; add its first segment to TAGS`);
  const scope = keyScopeOf(route);
  const keyNote = keyNoteOf(route);
  const description = [spec.description, keyNote].filter(Boolean).join('\n\n');

  const result: OperationObject = {
    operationId: route.id,
    summary: route.summary,
    ...(description ? { description } : {}),
    tags: [tag.name],
    security:
      route.auth === 'protected'
        ? [{ [ACCESS_COOKIE_SCHEME]: [] }, ...(scope ? [{ [API_KEY_SCHEME]: [] }] : [])]
        : spec.refreshCookie
          ? [{ [REFRESH_COOKIE_SCHEME]: [] }]
          : [],
    responses: {},
  };

  const parameters = [
    ...pathParameters(route, spec.request?.path),
    ...(spec.request?.query ? queryParameters(spec.request.query) : []),
    ...(route.idempotent ? [IDEMPOTENCY_KEY_PARAMETER] : []),
    ...Object.entries(spec.requestHeaders ?? {}).map(([name, header]): ParameterObject => ({
      name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: header.schema,
    })),
  ];
  if (parameters.length) result.parameters = parameters;

  if (spec.request?.body) {
    const example = spec.example?.body;
    result.requestBody = {
      required: true,
      content: {
        [JSON_CONTENT_TYPE]: { schema: { ...componentRef(requestComponents, spec.request.body, route.id) }, ...(example === undefined ? {} : { example }) },
      },
    };
  }

  result.responses[String(spec.success.status)] = successResponse(route, spec);
  for (const [status, why] of errorStatuses(route, spec)) {
    const name = status === 429 && scope ? KEY_TOO_MANY_REQUESTS : ERROR_RESPONSES[status].name;
    result.responses[String(status)] = { $ref: `${RESPONSE_REF}${name}`, description: why };
  }

  if (route.rateLimits?.length) {
    result['x-rate-limit'] = route.rateLimits.map(({ per, limit, windowSeconds, counts = 'requests', scope }) => ({
      per,
      limit,
      windowSeconds,
      counts,
      ...(scope === undefined ? {} : { scope }),
    }));
  }
  if (route.audits) result['x-audit-actions'] = route.audits;
  if (scope) result['x-api-key-scope'] = { resource: scope.resource, access: scope.access };
  return result;
}

/** The 429 of an operation an API key may call: when the key's own window is spent, it says so in the RateLimit headers. */
function keyTooManyRequests(): ResponseObject {
  const response = errorResponse(429);
  return {
    ...response,
    description: `${response.description} When it is the API key's window (${API_KEY_RATE_LIMIT.limit} requests per ${API_KEY_RATE_LIMIT.windowSeconds} seconds), \`RateLimit\` says \`r=0\`.`,
    headers: { ...response.headers, ...KEY_RATE_LIMIT_HEADERS },
  };
}

/** The problem response of one status: the Problem schema with that status and its types. */
function errorResponse(status: ErrorStatus): ResponseObject {
  const entry = ERROR_RESPONSES[status];
  const types = [...new Set(entry.errors.map((error) => problemFor(error, '').problem.type))];
  const response: ResponseObject = {
    description: entry.description,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: {
          allOf: [
            { $ref: `${SCHEMA_REF}${status === 400 ? 'ValidationProblem' : 'Problem'}` },
            { type: 'object', properties: { status: { const: status }, type: { enum: types } } },
          ],
        },
      },
    },
  };
  if (RETRY_AFTER_STATUSES.has(status)) response.headers = { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };
  return response;
}

const API_KEY_DESCRIPTION = `An API key of the tenant (POST /api-keys; shown once), sent as \`Authorization: Bearer <key>\`. Its text is \`bo_<live|test>_<keyId>_<secret><checksum>\`, base62: the key id (30 characters), the secret (43) and a CRC32 checksum (6); the whole of it matches \`${API_KEY_PATTERN}\`. Deployed stages take \`bo_live_\` keys, \`npm start\` \`bo_test_\` ones. For servers only: a request with an \`Origin\` or \`Sec-Fetch-Site\` header gets 401. Never with the session cookie: both at once get 400. A key opens the operations whose \`x-api-key-scope\` its scopes hold (\`write\` includes \`read\`), as the tenant's administrator; anything else gets 403 saying why. A key's successful answers carry \`RateLimit-Policy\` (${API_KEY_RATE_LIMIT.limit} requests per ${API_KEY_RATE_LIMIT.windowSeconds} seconds per key) and \`RateLimit\` (what is left); past it, 429 with \`Retry-After\` and both.`;

export interface OpenApiOptions {
  /** The servers to list; `DEFAULT_SERVERS` by default. */
  servers?: ServerObject[];
}

/** The whole document: pure, the same output for the same code. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  nameUnnamedSchemas();
  const paths: OpenApiDocument['paths'] = {};
  const usedTags = new Set<string>();
  for (const route of routeList()) {
    const item = (paths[route.path] ??= {});
    const op = operation(route);
    item[route.method.toLowerCase() as HttpVerb] = op;
    for (const tag of op.tags) usedTags.add(tag);
  }

  const responses: Record<string, ResponseObject> = {};
  for (const status of Object.keys(ERROR_RESPONSES).map(Number) as ErrorStatus[]) responses[ERROR_RESPONSES[status].name] = errorResponse(status);
  responses[KEY_TOO_MANY_REQUESTS] = keyTooManyRequests();

  const requestSchemas = convertComponents(requestComponents, 'input');
  requireOneField(requestSchemas);
  describeDefaults(requestSchemas);
  addDiscriminators(requestSchemas);
  if (requestSchemas.JsonValue) requestSchemas.JsonValue = { ...JSON_VALUE_SCHEMA };
  const responseSchemas = convertComponents(responseComponents, 'output');
  const clashes = Object.keys(requestSchemas).filter((name) => name in responseSchemas);
  if (clashes.length) throw new Error(`openapi: request and response components share the names ${clashes.join(', ')}`);

  return {
    openapi: OPENAPI_VERSION,
    info: { title: 'Back-office API', version: API_VERSION, description: DESCRIPTION, contact: CONTACT },
    servers: options.servers ?? DEFAULT_SERVERS,
    tags: [...new Set(Object.values(TAGS))].filter((tag) => usedTags.has(tag.name)),
    paths,
    components: {
      schemas: { ...requestSchemas, ...responseSchemas },
      responses,
      headers: HEADERS,
      securitySchemes: {
        [ACCESS_COOKIE_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: 'accessToken',
          description:
            'The HttpOnly access-token cookie set by register, login and refresh (a 15-minute ES256 JWT). Browsers send it with `credentials: include`.',
        },
        [REFRESH_COOKIE_SCHEME]: {
          type: 'apiKey',
          in: 'cookie',
          name: 'refreshToken',
          description: 'The HttpOnly refresh-token cookie (Path=/auth), rotated by every refresh.',
        },
        [API_KEY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'bo_live_… (a back-office API key)',
          description: API_KEY_DESCRIPTION,
        },
      },
    },
  };
}
