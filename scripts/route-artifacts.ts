/**
 * What the repository derives from each route's manifest entry and its handler's docs, besides the
 * OpenAPI document (tools/openapi): the `sam local invoke` sample event of every route, the
 * route table of docs/routes.md and docs/deploy.md's list of invoke commands. `npm run routes` writes
 * them; `test/unit/route-artifacts.test.ts` fails, naming that command, when a file is stale.
 *
 * The authorizer's and the scheduled job's sample events are not routes: they stay written
 * by hand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fromRoot } from '../infra/paths';
import { AUTHORIZER_FUNCTION_ID, routeFunctionId } from '../infra/stack';
import { areaStackId } from '../infra/constructs/route-area';
import type { RouteDocs } from '../lib/http/route-docs';
import { routeHandlers } from '../tools/openapi/handlers';
import { authorizer, jobs, routeArea, routeList, type Route, type RouteId } from '../lib/routes';

export const FIX_COMMAND = 'npm run routes';

type Spec = RouteDocs;
type ListedRoute = Route & { id: RouteId };

/** The sample event file of a handler: `functions/auth/login.ts` -> `events/login.json`. */
export const eventFileOf = (handler: string): string => path.posix.join('events', `${path.basename(handler, '.ts')}.json`);

/** A route's typical request, from its docs' example: the concrete path, parameters, headers and body. */
export interface ExampleRequest {
  path: string;
  pathParameters: Record<string, string> | null;
  query: Record<string, string> | null;
  headers: Record<string, string>;
  body: string | null;
  platformAdmin: boolean;
}

export function exampleRequest(route: Route, spec: Spec): ExampleRequest {
  const example = spec.example ?? {};
  const concrete = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = example.path?.[name];
    if (value === undefined) throw new Error(`${route.handler}: the docs' example names no value for the path parameter {${name}}`);
    return value;
  });
  const headers: Record<string, string> = {};
  if (example.body !== undefined) headers['Content-Type'] = 'application/json';
  if (example.cookie !== undefined) headers.Cookie = example.cookie;
  return {
    path: concrete,
    pathParameters: example.path ?? null,
    query: example.query ?? null,
    headers,
    body: example.body === undefined ? null : JSON.stringify(example.body),
    platformAdmin: example.platformAdmin === true,
  };
}

// The sample caller: the dev stage, called from the local web app's origin.
const STAGE = 'dev';
const API_ID = 'a1b2c3d4e5';
const HOST = `${API_ID}.execute-api.us-east-1.amazonaws.com`;
const SOURCE_IP = '203.0.113.10';
const USER_AGENT = 'Mozilla/5.0 (sam local invoke)';
const SAMPLE_HEADERS = {
  Accept: 'application/json',
  Host: HOST,
  Origin: 'http://localhost:5173',
  'User-Agent': USER_AGENT,
  'X-Forwarded-For': SOURCE_IP,
  'X-Forwarded-Port': '443',
  'X-Forwarded-Proto': 'https',
};
const USER_ID = '0b9e8d7c-6f5a-4b3c-8d2e-1f0a9b8c7d6e';

/** The context the REQUEST authorizer hands to a protected route (lib/auth/principal), for Ana, a tenant administrator. */
const authorizerContext = (platformAdmin: boolean) => ({
  principalId: USER_ID,
  kind: 'user',
  tenantId: '6f1c2a0e-3b7d-4e5f-9a8b-1c2d3e4f5a6b',
  userId: USER_ID,
  sessionId: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  jti: 'a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c0d',
  role: 'ADMIN',
  platformAdmin: String(platformAdmin),
  name: 'Ana Souza',
  email: 'ana@example.com',
  tokenExpiresAt: '1795303800',
  sessionsValidFrom: '',
  credentialVersion: '0',
  mfaEnrolmentRequired: 'false',
  integrationLatency: 12,
});

const multiValued = (values: Record<string, string> | null) =>
  values ? Object.fromEntries(Object.entries(values).map(([key, value]) => [key, [value]])) : null;

/** The REST proxy event (payload 1.0) API Gateway hands the route's function for its example request. */
export function sampleEvent(route: Route, spec: Spec): Record<string, unknown> {
  const request = exampleRequest(route, spec);
  const headers = { ...SAMPLE_HEADERS, ...request.headers };
  const name = path.basename(route.handler, '.ts');
  return {
    resource: route.path,
    path: request.path,
    httpMethod: route.method,
    headers,
    multiValueHeaders: multiValued(headers),
    queryStringParameters: request.query,
    multiValueQueryStringParameters: multiValued(request.query),
    pathParameters: request.pathParameters,
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: API_ID,
      ...(route.auth === 'protected' ? { authorizer: authorizerContext(request.platformAdmin) } : {}),
      domainName: HOST,
      domainPrefix: API_ID,
      extendedRequestId: 'Q1w2E3r4T5y6U7i=',
      httpMethod: route.method,
      identity: {
        accessKey: null,
        accountId: null,
        caller: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        sourceIp: SOURCE_IP,
        user: null,
        userAgent: USER_AGENT,
        userArn: null,
      },
      path: `/${STAGE}${request.path}`,
      protocol: 'HTTP/1.1',
      requestId: `sample-${name}`,
      requestTime: '21/Nov/2026:23:15:00 +0000',
      requestTimeEpoch: 1795302900000,
      resourceId: 'r3s0rc',
      resourcePath: route.path,
      stage: STAGE,
    },
    body: request.body,
    isBase64Encoded: false,
  };
}

/** Who may call a route, as the route table says it: the caller, and the scope an API key needs when one may. */
function accessOf(route: Route, spec: Spec): string {
  const caller = spec.access ?? (spec.refreshCookie ? 'refresh cookie' : route.auth === 'public' ? 'public' : 'session');
  return route.apiKey ? `${caller} or API key (${route.apiKey.resource}: ${route.apiKey.access})` : caller;
}

/** The route table of docs/routes.md. */
export function routeTable(routes: ListedRoute[], specOf: (id: RouteId) => Spec): string {
  const rows = routes.map(
    (route) => `| ${route.method} | ${route.path} | ${accessOf(route, specOf(route.id))} | ${route.handler} | ${specOf(route.id).notes} |`,
  );
  return ['| Method | Path | Access | Handler | Notes |', '|---|---|---|---|---|', ...rows].join('\n');
}

/**
 * docs/deploy.md's `sam local invoke` command of every function, in the template's logical
 * ids; a route function as `<area stack>/<function>`, the way SAM names a nested stack's function.
 */
export function samInvokeList(routes: ListedRoute[]): string {
  const invoke = (functionId: string, handler: string) =>
    `sam local invoke -t cdk.out/Backoffice-${STAGE}.template.json ${functionId} -e ${eventFileOf(handler)}`;
  const lines = [
    invoke(AUTHORIZER_FUNCTION_ID, authorizer.handler),
    ...routes.map((route) => invoke(`${areaStackId(routeArea(route))}/${routeFunctionId(route.id)}`, route.handler)),
    ...Object.entries(jobs).map(([id, job]) => invoke(routeFunctionId(id), job.handler)),
  ];
  return ['```sh', ...lines, '```'].join('\n');
}

/** Replace what stands between `<!-- name:start -->` and `<!-- name:end -->` in `text`. */
export function replaceBetweenMarkers(text: string, name: string, content: string, file: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} ... ${end} block`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every generated file, by repository-relative path, with the content it must have now. */
export function generatedFiles(): Map<string, string> {
  const routes = routeList();
  const specOf = (id: RouteId): Spec => routeHandlers[id].docs;
  const files = new Map<string, string>();
  for (const route of routes) files.set(eventFileOf(route.handler), json(sampleEvent(route, specOf(route.id))));
  const table = readFileSync(fromRoot('docs/routes.md'), 'utf8');
  files.set('docs/routes.md', replaceBetweenMarkers(table, 'routes', routeTable(routes, specOf), 'docs/routes.md'));
  const deploy = readFileSync(fromRoot('docs/deploy.md'), 'utf8');
  files.set('docs/deploy.md', replaceBetweenMarkers(deploy, 'sam-invoke', samInvokeList(routes), 'docs/deploy.md'));
  return files;
}
