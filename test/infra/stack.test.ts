import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSizes, CLOUDFORMATION_RESOURCE_LIMIT, formatStackSummaries, stackSummaries } from '../../infra/bundle-sizes';
import { CREDENTIALS_READ_ACTIONS, CREDENTIALS_WRITE_ACTIONS, MEMORY_MB } from '../../infra/constructs/functions';
import { EXPORT_MAX_CONCURRENCY, EXPORT_WORKER_FUNCTION_ID } from '../../infra/constructs/exports';
import { IMPORT_WORKER_FUNCTION_ID } from '../../infra/constructs/imports';
import { TENANT_JOB_WORKER_FUNCTION_ID } from '../../infra/constructs/tenant-jobs';
import { WEBHOOK_DELIVERY_FUNCTION_ID } from '../../infra/constructs/webhooks';
import { JOB_MAX_EVENT_AGE, JOB_RETRY_ATTEMPTS } from '../../infra/constructs/jobs';
import { AUTHORIZER_FAILURE_LOG_MESSAGE, DEFAULT_LOGIN_FAILURE_ALARM_THRESHOLD, FUNCTIONS_PER_ERRORS_ALARM } from '../../infra/constructs/observability';
import { fromRoot } from '../../infra/paths';
import { AUTHORIZER_FUNCTION_ID, routeFunctionId, TOKEN_VERIFYING_ROUTES } from '../../infra/stack';
import { areaStackId } from '../../infra/constructs/route-area';
import { EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/http/request';
import { METRICS, METRICS_SERVICE } from '../../lib/metrics';
import {
  authorizer as authorizerManifest,
  countsRequests,
  jobs,
  routeArea,
  routeList,
  TABLE_WRITE_ACTIONS,
  uses,
  workers,
  writesTable,
  type TableAccess,
} from '../../lib/routes';
import { CREDENTIALS_PK_PREFIX } from '../../lib/db/keys';
import { LOCAL_APP_ORIGIN, settings } from '../../lib/settings';
import { DEFAULT_STACK_NAME, readAssembly, type CloudAssembly } from '../../local/bundles/assembly';
import { dynamoContextOptions, LOCAL_ACCOUNT, LOCAL_REGION, resolvedStatements, type LocalWorld } from '../../local/bundles/environment';
import { authorizeDynamoCall, type Decision } from '../../local/bundles/iam';
import { missingControlTowerRuleFolders, sharedAssembly, sharedSynthesis, type ValidationReport, violationsOf } from './synth';

/**
 * Properties of the synthesized dev stack, checked against the route manifest, and its
 * AWS Solutions (cdk-nag) report. The assembly is the run's one `npx cdk synth`
 * (test/infra/global-setup.ts): the CLI, cdk.json and bundling exactly as they deploy.
 */

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  Metadata?: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  DependsOn?: string | string[];
}

const SYNTH_TIMEOUT_MS = 175_000;

/** DynamoDB actions that change data; a function that declares no write must be granted none of them. */
const DYNAMODB_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
  'dynamodb:*',
];

let template: Template;
let resources: Record<string, Resource>;
let report: ValidationReport;
let outdir: string;
/** The same synthesis as local/bundles reads it: what the IAM evaluator and the bundle-mode proxy see. */
let bundles: CloudAssembly;

beforeAll(async () => {
  // A finding that is not acknowledged fails the synthesis itself (sharedAssembly throws its output).
  outdir = await sharedAssembly();
  report = JSON.parse(readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  bundles = readAssembly({ dir: outdir, stackName: DEFAULT_STACK_NAME });
  // The parent and its area stacks read as one template (local/bundles/assembly.ts, flattenedTemplate).
  template = Template.fromJSON(bundles.template);
  resources = template.toJSON().Resources as Record<string, Resource>;
}, SYNTH_TIMEOUT_MS);

// ---- template navigation -------------------------------------------------------------------

function ofType(type: string): [string, Resource][] {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
}

/**
 * CDK's own custom-resource handlers: the one that copies the console's build into its bucket
 * and, in a DESTROY stage, the one that empties that bucket on deletion (the functions a
 * custom resource names as its ServiceToken). They are aws-cdk-lib's code, not the service's:
 * the function tests below are about the service functions, and 'console' checks these.
 */
function customResourceHandlers(): Set<string> {
  const handlers = new Set<string>();
  for (const [, resource] of Object.entries(resources)) {
    if (resource.Type.startsWith('Custom::')) for (const id of referencedIds(resource.Properties.ServiceToken)) handlers.add(id);
  }
  return handlers;
}

/** The service's functions: one per route and job, and the authorizer. */
function serviceFunctions(): [string, Resource][] {
  const handlers = customResourceHandlers();
  return ofType('AWS::Lambda::Function').filter(([id]) => !handlers.has(id));
}

function only<T>(items: T[], what: string): T {
  expect(items, what).toHaveLength(1);
  return items[0] as T;
}

/** Logical ids of every resource named by `Ref` or `Fn::GetAtt` anywhere inside `value`. */
function referencedIds(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedIds(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'Ref' && typeof inner === 'string') found.add(inner);
      else if (key === 'Fn::GetAtt' && Array.isArray(inner) && typeof inner[0] === 'string') found.add(inner[0]);
      else referencedIds(inner, found);
    }
  }
  return found;
}

/** The one Lambda function referenced inside `value` (an integration or authorizer URI). */
function functionIn(value: unknown): string {
  const ids = [...referencedIds(value)].filter((id) => resources[id]?.Type === 'AWS::Lambda::Function');
  return only(ids, 'functions referenced');
}

/** Full resource path (`/auth/sessions/{id}/revoke`) of an API Gateway resource reference. */
function resourcePath(resourceId: unknown): string {
  const ref = resourceId as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  if (ref['Fn::GetAtt']?.[1] === 'RootResourceId') return '';
  const resource = resources[ref.Ref ?? ''];
  if (resource?.Type !== 'AWS::ApiGateway::Resource') throw new Error(`Not an API resource: ${JSON.stringify(resourceId)}`);
  return `${resourcePath(resource.Properties.ParentId)}/${String(resource.Properties.PathPart)}`;
}

/** Every API method keyed by `METHOD /path`. */
function methodsByRoute(): Map<string, Json> {
  const methods = new Map<string, Json>();
  for (const [, method] of ofType('AWS::ApiGateway::Method')) {
    const key = `${String(method.Properties.HttpMethod)} ${resourcePath(method.Properties.ResourceId) || '/'}`;
    methods.set(key, method.Properties);
  }
  return methods;
}

function methodOf(route: { method: string; path: string }): Json {
  const method = methodsByRoute().get(`${route.method} ${route.path}`);
  if (!method) throw new Error(`No method for ${route.method} ${route.path}`);
  return method;
}

/** Logical id of the function behind a route. */
/** The import bucket's logical id (infra/constructs/imports.ts). */
const importBucketId = (): string =>
  only(
    ofType('AWS::S3::Bucket').filter(([id]) => id.startsWith('Imports')),
    'import buckets',
  )[0];

function routeFunction(route: { method: string; path: string }): string {
  return functionIn(methodOf(route).Integration);
}

function authorizerFunction(): string {
  const [, authorizer] = only(ofType('AWS::ApiGateway::Authorizer'), 'authorizers');
  return functionIn(authorizer.Properties.AuthorizerUri);
}

interface Statement {
  Sid?: string;
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const asList = (value: string | string[]): string[] => (Array.isArray(value) ? value : [value]);

/** Every IAM statement attached to a role, inline or through AWS::IAM::Policy. */
function statementsOfRole(roleId: string): Statement[] {
  const inline = ((resources[roleId]?.Properties.Policies ?? []) as { PolicyDocument: { Statement: Statement[] } }[]).flatMap(
    (policy) => policy.PolicyDocument.Statement,
  );
  const attached = ofType('AWS::IAM::Policy')
    .filter(([, policy]) => referencedIds(policy.Properties.Roles).has(roleId))
    .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement);
  return [...inline, ...attached];
}

function statementsOfFunction(functionId: string): Statement[] {
  const roleId = only([...referencedIds(resources[functionId]?.Properties.Role)], 'roles of the function');
  return statementsOfRole(roleId);
}

/** The statements that let a function write the table, with their conditions. */
function writeStatementsOf(functionId: string): Statement[] {
  return statementsOfFunction(functionId).filter(
    (statement) => statement.Effect === 'Allow' && asList(statement.Action).some((action) => DYNAMODB_WRITE_ACTIONS.includes(action)),
  );
}

/** What a statement's resource is, in the terms of the manifest: `table`, `index/<name>`, or its JSON. */
function tableResource(resource: unknown): string {
  const tableId = only(ofType('AWS::DynamoDB::GlobalTable'), 'tables')[0];
  const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
  if (JSON.stringify(resource) === JSON.stringify(tableArn)) return 'table';
  const parts = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join']?.[1];
  if (parts?.length === 2 && JSON.stringify(parts[0]) === JSON.stringify(tableArn) && typeof parts[1] === 'string') return parts[1].replace(/^\//, '');
  return JSON.stringify(resource);
}

/**
 * Every DynamoDB grant and refusal of a function, one line per action and resource:
 * `Allow dynamodb:GetItem table`, `Allow dynamodb:Query index/gsi1`, with ` if <condition>`
 * when the statement has one. Sorted, so two functions' lists compare whole.
 */
function dynamoPermissionsOf(functionId: string): string[] {
  return statementsOfFunction(functionId)
    .flatMap((statement) =>
      asList(statement.Action)
        .filter((action) => action.startsWith('dynamodb:'))
        .flatMap((action) =>
          (Array.isArray(statement.Resource) ? statement.Resource : [statement.Resource]).map(
            (resource) => `${statement.Effect} ${action} ${tableResource(resource)}${statement.Condition ? ` if ${JSON.stringify(statement.Condition)}` : ''}`,
          ),
        ),
    )
    .sort();
}

function environmentOf(functionId: string): Record<string, unknown> {
  return (resources[functionId]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

const routes = routeList();
/** Every function bound to the table, with its manifest entry: the routes', the authorizer's and the jobs'. */
interface BoundFunction {
  name: string;
  functionId: () => string;
  table: TableAccess;
  rateLimited: boolean;
  updatesAttributes?: readonly string[];
  partitionUpdates?: { partitions: string; attributes: readonly string[] };
  /** A searching list: it may fold the search log (PutItem and BatchWriteItem on the search partitions only). */
  searches?: boolean;
}
const protectedRoutes = routes.filter((route) => route.auth === 'protected');
const publicRoutes = routes.filter((route) => route.auth === 'public');

/** A cycle of Ref, Fn::GetAtt, Fn::Sub and DependsOn between resources (CloudFormation refuses one), or undefined. */
function dependencyCycle(): string[] | undefined {
  const edges = new Map<string, string[]>();
  for (const [id, resource] of Object.entries(resources)) {
    const targets = referencedIds(resource.Properties);
    const sub = JSON.stringify(resource.Properties ?? {}).matchAll(/\$\{([A-Za-z0-9]+)[.}]/g);
    for (const match of sub) if (resources[match[1] as string]) targets.add(match[1] as string);
    for (const dependency of [resource.DependsOn ?? []].flat()) targets.add(dependency);
    edges.set(
      id,
      [...targets].filter((target) => resources[target]),
    );
  }
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string, trail: string[]): string[] | undefined => {
    if (state.get(id) === 'open') return [...trail.slice(trail.indexOf(id)), id];
    if (state.get(id) === 'done') return undefined;
    state.set(id, 'open');
    for (const target of edges.get(id) ?? []) {
      const cycle = visit(target, [...trail, id]);
      if (cycle) return cycle;
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const id of edges.keys()) {
    const cycle = visit(id, []);
    if (cycle) return cycle;
  }
  return undefined;
}

// ---- tests -------------------------------------------------------------------------------

const jobList = Object.entries(jobs).map(([id, job]) => ({ id, ...job }));
const TOKEN_VERIFIERS = [AUTHORIZER_FUNCTION_ID, ...[...TOKEN_VERIFYING_ROUTES].map(routeFunctionId)];

function jobFunction(jobId: string): string {
  const id = `${jobId.charAt(0).toUpperCase()}${jobId.slice(1)}Function`;
  expect(resources[id]?.Type, id).toBe('AWS::Lambda::Function');
  return id;
}

describe('functions', () => {
  it('traces every function actively and gives each the metrics namespace of the stack', () => {
    for (const [id, fn] of serviceFunctions()) {
      expect(fn.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
      expect((fn.Properties.Environment as { Variables: Json }).Variables.POWERTOOLS_METRICS_NAMESPACE, id).toBe('Backoffice/Backoffice-dev');
    }
  });

  it('creates one function per manifest route and job plus the authorizer, each its own', () => {
    expect(serviceFunctions()).toHaveLength(routes.length + jobList.length + Object.keys(workers).length + 1);
    const behindRoutes = new Set(routes.map(routeFunction));
    expect(behindRoutes.size).toBe(routes.length);
    expect(behindRoutes.has(authorizerFunction())).toBe(false);
  });

  it("writes each function's grants in its role (no AWS::IAM::Policy per function)", () => {
    const functionRoles = new Set(serviceFunctions().flatMap(([, fn]) => [...referencedIds(fn.Properties.Role)]));
    expect(functionRoles.size).toBe(serviceFunctions().length);
    for (const [id, policy] of ofType('AWS::IAM::Policy')) {
      for (const role of policy.Properties.Roles as unknown[])
        expect(
          [...referencedIds(role)].filter((ref) => functionRoles.has(ref)),
          id,
        ).toEqual([]);
    }
  });

  it('bundles each function from its own handler entry', () => {
    const entries = new Map<string, string>();
    for (const [id, fn] of serviceFunctions()) {
      const asset = fn.Metadata?.['aws:asset:path'];
      expect(asset, id).toEqual(expect.stringMatching(/^asset\./));
      entries.set(id, String(asset));
    }
    expect(new Set(entries.values()).size).toBe(entries.size);
    // infra/bundle-sizes.ts lists the service functions, not CDK's handlers.
    const sizes = bundleSizes(outdir);
    expect(sizes.map((size) => size.logicalId).sort()).toEqual([...entries.keys()].sort());
    for (const size of sizes) expect(size.bytes, size.logicalId).toBeGreaterThan(1000);
  });

  it('summarizes each template for `npm run synth`: its resources, its functions, its largest bundle and its headroom to 500', () => {
    const summaries = stackSummaries(outdir);
    const parent = summaries.find((summary) => summary.stack === DEFAULT_STACK_NAME);
    const parentTemplate = JSON.parse(readFileSync(path.join(outdir, `${DEFAULT_STACK_NAME}.template.json`), 'utf8')) as { Resources: Json };
    expect(parent?.resources).toBe(Object.keys(parentTemplate.Resources).length);
    expect(summaries.map((summary) => summary.stack)).toEqual(
      [DEFAULT_STACK_NAME, ...new Set(routes.map(routeArea))].map((area) => (area === DEFAULT_STACK_NAME ? area : expect.stringContaining(areaStackId(area)))),
    );
    expect(summaries.reduce((sum, summary) => sum + summary.functions, 0)).toBe(bundleSizes(outdir).length);
    for (const summary of summaries) {
      expect(summary.headroom, summary.stack).toBe(CLOUDFORMATION_RESOURCE_LIMIT - summary.resources);
      if (summary.functions > 0) expect(summary.largest?.stack, summary.stack).toBe(summary.stack);
    }
    expect(formatStackSummaries(summaries)).toContain(`Headroom to ${CLOUDFORMATION_RESOURCE_LIMIT}`);
  });

  it('names each function plainly: the route id, the authorizer, the job', () => {
    for (const route of routes) expect(routeFunction(route)).toBe(routeFunctionId(route.id));
    expect(authorizerFunction()).toBe(AUTHORIZER_FUNCTION_ID);
    for (const job of jobList) jobFunction(job.id);
    expect(resources[WEBHOOK_DELIVERY_FUNCTION_ID]?.Type).toBe('AWS::Lambda::Function');
  });

  it('runs every function on Node.js 22, arm64, as an ESM bundle: the route functions in one shared log group, the authorizer and the jobs each in its own', () => {
    const functions = serviceFunctions();
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) as unknown } },
      });
    }
    const logGroupOf = (id: string) => (resources[id]?.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
    const routeLogGroups = new Set(routes.map((route) => logGroupOf(routeFunction(route))));
    expect(routeLogGroups.size).toBe(1);
    const others = functions.map(([id]) => id).filter((id) => !routes.some((route) => routeFunction(route) === id));
    expect(others.length).toBeGreaterThanOrEqual(2);
    const otherLogGroups = new Set(others.map(logGroupOf));
    expect(otherLogGroups.size).toBe(others.length);
    for (const logGroup of routeLogGroups) expect(otherLogGroups.has(logGroup)).toBe(false);
  });

  it("keeps the API functions under API Gateway's 29 s and gives the jobs minutes", () => {
    for (const route of routes) expect(resources[routeFunction(route)]?.Properties.Timeout, route.id).toBeLessThan(29);
    expect(resources[authorizerFunction()]?.Properties.Timeout).toBeLessThan(29);
    for (const job of jobList) expect(resources[jobFunction(job.id)]?.Properties.Timeout).toBeGreaterThanOrEqual(60);
  });

  it('gives the bcrypt and search routes one full vCPU (1769 MB) and every other function 256 MB', () => {
    expect(MEMORY_MB).toEqual({ bcrypt: 1769, search: 1769, default: 256 });
    // Which routes run bcrypt is the manifest's to say (`cpu: 'bcrypt'`), not this test's: the
    // sizes follow it. At least the sign-in does, so the check below is never vacuous.
    expect(routes.filter((route) => route.cpu === 'bcrypt').map((route) => route.id)).toContain('login');
    expect(routes.filter((route) => route.cpu === 'search').map((route) => route.id)).toEqual(['listSuppliers', 'listProducts']);
    for (const route of routes) {
      const memory = resources[routeFunction(route)]?.Properties.MemorySize;
      expect(memory, route.id).toBe(route.cpu === undefined ? 256 : 1769);
    }
    expect(resources[authorizerFunction()]?.Properties.MemorySize).toBe(256);
    for (const job of jobList) expect(resources[jobFunction(job.id)]?.Properties.MemorySize).toBe(256);
  });

  it('sets the common configuration on every function, with no cookie path prefix and the console as the browser entry', () => {
    const distribution = only(ofType('AWS::CloudFront::Distribution'), 'distributions')[0];
    const domain = { 'Fn::GetAtt': [distribution, 'DomainName'] };
    const tableId = only(ofType('AWS::DynamoDB::GlobalTable'), 'tables')[0];
    for (const [id] of serviceFunctions()) {
      expect(environmentOf(id), id).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        JWT_ISSUER: expect.any(String) as unknown,
        JWT_AUDIENCE: expect.any(String) as unknown,
        ACCESS_TOKEN_TTL_SECONDS: String(settings.accessTokenSeconds),
        REFRESH_TOKEN_TTL_SECONDS: String(settings.refreshTokenSeconds),
        REMEMBER_ME_TTL_SECONDS: String(settings.rememberMeSeconds),
        // The console's origin first, then the dev default's other (the local console).
        ALLOWED_ORIGINS: { 'Fn::Join': ['', ['https://', domain, `,${LOCAL_APP_ORIGIN}`]] },
        COOKIE_SAME_SITE: settings.cookieSameSite,
        PATH_PREFIX: '',
        BCRYPT_COST: String(settings.bcryptCost),
        BUSINESS_TIME_ZONE: settings.businessTimeZone,
        APP_URL: { 'Fn::Join': ['', ['https://', domain, '/console']] },
        MAIL_FROM: expect.stringMatching(/@/) as unknown,
        MAIL_TRANSPORT: 'ses',
      });
    }
  });

  it('gives JWT_PUBLIC_KEYS to the token verifiers only: the authorizer and refresh', () => {
    expect(TOKEN_VERIFIERS.sort()).toEqual(['AuthorizerFunction', 'RefreshFunction']);
    for (const [id] of serviceFunctions()) {
      expect(environmentOf(id).JWT_PUBLIC_KEYS, id).toEqual(TOKEN_VERIFIERS.includes(id) ? '{"keys":[]}' : undefined);
    }
  });
});

describe('API routes and authorizer', () => {
  it('traces requests through the stage with X-Ray', () => {
    const [, stage] = only(ofType('AWS::ApiGateway::Stage'), 'stages');
    expect(stage.Properties.TracingEnabled).toBe(true);
  });

  it('has a REQUEST authorizer with no identity source (a cookie or an API key) and caching off', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: '',
      AuthorizerResultTtlInSeconds: 0,
    });
  });

  it('puts the authorizer on every protected route', () => {
    const [authorizerId] = only(ofType('AWS::ApiGateway::Authorizer'), 'authorizers');
    for (const route of protectedRoutes) {
      expect(methodOf(route), `${route.method} ${route.path}`).toMatchObject({
        AuthorizationType: 'CUSTOM',
        AuthorizerId: { Ref: authorizerId },
      });
    }
  });

  it('leaves the public routes and the CORS preflights without an authorizer', () => {
    for (const route of publicRoutes) {
      const method = methodOf(route);
      expect(method.AuthorizationType, `${route.method} ${route.path}`).toBe('NONE');
      expect(method.AuthorizerId).toBeUndefined();
    }
    const preflights = [...methodsByRoute()].filter(([key]) => key.startsWith('OPTIONS '));
    expect(preflights.length).toBeGreaterThan(0);
    for (const [key, method] of preflights) {
      expect(method.AuthorizationType, key).toBe('NONE');
    }
  });

  it('defines no method that is not in the manifest (besides the preflights)', () => {
    const expected = new Set(routes.map((route) => `${route.method} ${route.path}`));
    const actual = [...methodsByRoute().keys()].filter((key) => !key.startsWith('OPTIONS '));
    expect(new Set(actual)).toEqual(expected);
  });

  it("answers the preflight for the configured origins with credentials: the console's, then the local console", () => {
    const preflight = methodsByRoute().get('OPTIONS /auth/login') as { Integration: { IntegrationResponses: Json[] } } | undefined;
    const response = preflight?.Integration.IntegrationResponses[0] as { ResponseParameters: Json; ResponseTemplates: Json };
    const distribution = only(ofType('AWS::CloudFront::Distribution'), 'distributions')[0];
    expect(response.ResponseParameters).toMatchObject({
      'method.response.header.Access-Control-Allow-Credentials': "'true'",
      'method.response.header.Access-Control-Allow-Origin': { 'Fn::Join': ['', ["'https://", { 'Fn::GetAtt': [distribution, 'DomainName'] }, "'"]] },
    });
    expect(JSON.stringify(response.ResponseTemplates)).toContain(LOCAL_APP_ORIGIN);
    expect(JSON.stringify(response)).not.toContain("'*'");
  });

  it('throttles every method and writes JSON access logs and ERROR execution logs without request data', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      MethodSettings: Match.arrayWith([
        Match.objectLike({
          HttpMethod: '*',
          ResourcePath: '/*',
          ThrottlingRateLimit: 50,
          ThrottlingBurstLimit: 100,
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
        }),
      ]),
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"') },
    });
    const [, stage] = only(ofType('AWS::ApiGateway::Stage'), 'stages');
    const format = (stage.Properties.AccessLogSetting as { Format: string }).Format;
    expect(() => JSON.parse(format) as unknown).not.toThrow();
    expect(format).not.toMatch(/header|Cookie|body/i);
  });
});

describe('gateway responses', () => {
  const expected: Record<string, { status: number; type: string }> = {
    UNAUTHORIZED: { status: 401, type: 'unauthorized' },
    ACCESS_DENIED: { status: 403, type: 'forbidden' },
    MISSING_AUTHENTICATION_TOKEN: { status: 404, type: 'not-found' },
    AUTHORIZER_FAILURE: { status: 503, type: 'unavailable' },
    THROTTLED: { status: 429, type: 'rate-limited' },
    REQUEST_TOO_LARGE: { status: 413, type: 'payload-too-large' },
    DEFAULT_4XX: { status: 400, type: 'bad-request' },
    DEFAULT_5XX: { status: 500, type: 'internal' },
  };

  it.each(Object.entries(expected))('answers %s with a problem document', (responseType, { status, type }) => {
    const [, response] = only(
      ofType('AWS::ApiGateway::GatewayResponse').filter(([, resource]) => resource.Properties.ResponseType === responseType),
      responseType,
    );
    expect(response.Properties.StatusCode).toBe(String(status));
    expect(response.Properties.ResponseParameters).toMatchObject({
      'gatewayresponse.header.Content-Type': "'application/problem+json'",
      // The first allowed origin only (the console's), never an echo of the caller's.
      'gatewayresponse.header.Access-Control-Allow-Origin': {
        'Fn::Join': ['', ["'https://", { 'Fn::GetAtt': [only(ofType('AWS::CloudFront::Distribution'), 'distributions')[0], 'DomainName'] }, "'"]],
      },
      'gatewayresponse.header.Access-Control-Allow-Credentials': "'true'",
      'gatewayresponse.header.Vary': "'Origin'",
    });
    const body = JSON.parse((response.Properties.ResponseTemplates as Record<string, string>)['application/json'] ?? '') as unknown;
    expect(body).toEqual({
      type: `https://problems.backoffice.dev/${type}`,
      title: expect.any(String) as unknown,
      status,
      detail: expect.any(String) as unknown,
      requestId: '$context.requestId',
    });
  });

  it('tells clients when to retry after an authorizer failure or throttling', () => {
    for (const responseType of ['AUTHORIZER_FAILURE', 'THROTTLED']) {
      template.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        ResponseType: responseType,
        ResponseParameters: Match.objectLike({ 'gatewayresponse.header.Retry-After': "'1'" }),
      });
    }
  });

  it('keeps the body status equal to the response status on every gateway response', () => {
    for (const [id, response] of ofType('AWS::ApiGateway::GatewayResponse')) {
      const body = JSON.parse((response.Properties.ResponseTemplates as Record<string, string>)['application/json'] ?? '') as { status: number };
      expect(String(body.status), id).toBe(response.Properties.StatusCode);
    }
  });
});

describe('table', () => {
  it('has the shared key schema, the GSI and the TTL attribute, on demand', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      AttributeDefinitions: Match.arrayWith([
        { AttributeName: 'pk', AttributeType: 'S' },
        { AttributeName: 'sk', AttributeType: 'S' },
        { AttributeName: 'gsi1pk', AttributeType: 'S' },
        { AttributeName: 'gsi1sk', AttributeType: 'S' },
      ]),
      GlobalSecondaryIndexes: [
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ],
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      Replicas: [Match.objectLike({ PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true } })],
    });
  });

  it('is disposable in dev', () => {
    const [, table] = only(ofType('AWS::DynamoDB::GlobalTable'), 'tables');
    expect(table.DeletionPolicy).toBe('Delete');
  });
});

describe('IAM', () => {
  const RATE_LIMIT_COUNTERS = `Allow dynamodb:UpdateItem table if ${JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } })}`;
  const SEARCH_FOLD_CONDITION = JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['TENANT#*#SEARCH#*', 'TENANT#*#SEARCH_CHUNKS#*'] } });
  const SEARCH_FOLDS = ['PutItem', 'BatchWriteItem'].map((action) => `Allow dynamodb:${action} table if ${SEARCH_FOLD_CONDITION}`);
  const CREDENTIALS_CONDITION = JSON.stringify({ 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['CREDENTIALS#*'] } });
  const WEBHOOK_SECRETS_CONDITION = JSON.stringify({ 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': ['WEBHOOK_SECRETS#*'] } });
  /** What the manifest says a function's role holds on the table, in the terms of dynamoPermissionsOf. */
  function expectedPermissions(bound: BoundFunction): string[] {
    const deniedFor = (access: TableAccess['credentials']) =>
      ({ undefined: ['dynamodb:*'], read: [...CREDENTIALS_WRITE_ACTIONS], write: [...CREDENTIALS_READ_ACTIONS], 'read-write': [] })[String(access)] ?? [];
    const denied = deniedFor(bound.table.credentials);
    return [
      ...bound.table.actions.map((action) => `Allow dynamodb:${action} table`),
      ...(bound.table.indexes ?? []).map((index) => `Allow dynamodb:Query index/${index}`),
      ...(bound.rateLimited ? [RATE_LIMIT_COUNTERS] : []),
      ...(bound.searches ? SEARCH_FOLDS : []),
      ...(bound.updatesAttributes
        ? [
            `Allow dynamodb:UpdateItem table if ${JSON.stringify({ 'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', ...bound.updatesAttributes] }, StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] } })}`,
          ]
        : []),
      ...(bound.partitionUpdates
        ? [
            `Allow dynamodb:UpdateItem table if ${JSON.stringify({
              'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', ...bound.partitionUpdates.attributes] },
              'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [bound.partitionUpdates.partitions] },
              StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
            })}`,
          ]
        : []),
      ...denied.map((action) => `Deny ${action} table if ${CREDENTIALS_CONDITION}`),
      ...deniedFor(bound.table.webhookSecrets).map((action) => `Deny ${action} table if ${WEBHOOK_SECRETS_CONDITION}`),
    ].sort();
  }

  const bound: BoundFunction[] = [
    ...routes.map((route) => ({
      name: route.id,
      functionId: () => routeFunction(route),
      table: route.table,
      rateLimited: countsRequests(route),
      searches: route.searches !== undefined,
    })),
    {
      name: 'authorizer',
      functionId: authorizerFunction,
      table: authorizerManifest.table,
      rateLimited: false,
      updatesAttributes: authorizerManifest.updatesAttributes,
      partitionUpdates: authorizerManifest.keyUses,
    },
    ...jobList.map((job) => ({ name: `job ${job.id}`, functionId: () => jobFunction(job.id), table: job.table, rateLimited: false })),
    { name: 'webhook delivery', functionId: () => WEBHOOK_DELIVERY_FUNCTION_ID, table: workers.deliveryWorker.table, rateLimited: false },
  ];

  it('grants no wildcard action: the one wildcard is the Deny of the credentials and webhook secrets partitions', () => {
    const roles = ofType('AWS::IAM::Role').map(([id]) => id);
    for (const roleId of roles) {
      for (const statement of statementsOfRole(roleId)) {
        if (statement.Effect === 'Deny') {
          expect([
            { Sid: 'DenyCredentials', Condition: JSON.parse(CREDENTIALS_CONDITION) as unknown },
            { Sid: 'DenyWebhookSecrets', Condition: JSON.parse(WEBHOOK_SECRETS_CONDITION) as unknown },
          ]).toContainEqual({ Sid: statement.Sid, Condition: statement.Condition });
          continue;
        }
        for (const action of asList(statement.Action)) {
          expect(action, roleId).not.toBe('*');
          expect(action, roleId).not.toMatch(/^[a-z0-9-]+:\*$/);
        }
      }
    }
  });

  it.each(bound.map((entry) => [entry.name, entry] as const))(
    "grants %s exactly its manifest entry's table access, and refuses what it leaves of the credentials partition",
    (_name, entry) => {
      expect(dynamoPermissionsOf(entry.functionId())).toEqual(expectedPermissions(entry));
    },
  );

  it('grants Query on the index only to the functions that declare it', () => {
    const indexQueriers = bound.filter((entry) => dynamoPermissionsOf(entry.functionId()).some((line) => line.includes(' index/'))).map((entry) => entry.name);
    // The integrity check walks the tenants by their name index, as listTenants does; a count's
    // uncounted products and its close read the warehouse's index of balances with stock.
    expect(indexQueriers).toEqual([
      'listTenants',
      'withdrawInvitation',
      'updateCompanyStatus',
      'listUncounted',
      'closeCount',
      'listAuditEvents',
      'listEvents',
      'job salesRollup',
      'job integrityCheck',
    ]);
  });

  it('gives a function that declares no write no table write beyond its rate-limit counters and, for a searching list, the search partitions', () => {
    const readers = bound.filter((entry) => !writesTable(entry.table) && !entry.updatesAttributes);
    expect(readers.map((entry) => entry.name)).toEqual(
      expect.arrayContaining(['me', 'listTenants', 'listSessions', 'getSupplier', 'listAuditEvents', 'listSuppliers', 'listProducts']),
    );
    for (const entry of readers) {
      const writes = writeStatementsOf(entry.functionId());
      expect(writes, entry.name).toEqual([
        // Only UpdateItem, only on items whose partition key starts with RATE#.
        ...(entry.rateLimited
          ? [expect.objectContaining({ Action: 'dynamodb:UpdateItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } } })]
          : []),
        // Only the search's log and chunks.
        ...(entry.searches
          ? [expect.objectContaining({ Action: ['dynamodb:BatchWriteItem', 'dynamodb:PutItem'], Condition: JSON.parse(SEARCH_FOLD_CONDITION) as unknown })]
          : []),
      ]);
    }
  });

  it('lets GET /auth/me and the authorizer nothing on the credentials partition, and login only read it', () => {
    const deniedOf = (functionId: string) => dynamoPermissionsOf(functionId).filter((line) => line.startsWith('Deny ') && line.includes('CREDENTIALS#'));
    expect(deniedOf(routeFunction(routes.find((route) => route.id === 'me')!))).toEqual([`Deny dynamodb:* table if ${CREDENTIALS_CONDITION}`]);
    expect(deniedOf(authorizerFunction())).toEqual([`Deny dynamodb:* table if ${CREDENTIALS_CONDITION}`]);
    expect(deniedOf(routeFunction(routes.find((route) => route.id === 'login')!))).toEqual(
      ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].map(
        (action) => `Deny ${action} table if ${CREDENTIALS_CONDITION}`,
      ),
    );
    // GET /auth/me reads nothing: no table grant at all.
    expect(dynamoPermissionsOf(routeFunction(routes.find((route) => route.id === 'me')!)).filter((line) => line.startsWith('Allow '))).toEqual([]);
  });

  it('lets only the functions that make, rotate, delete or sign with a webhook secret reach the secrets partition', () => {
    const declared = Object.fromEntries(bound.filter((entry) => entry.table.webhookSecrets).map((entry) => [entry.name, entry.table.webhookSecrets]));
    expect(declared).toEqual({
      createWebhookEndpoint: 'write',
      deleteWebhookEndpoint: 'write',
      rotateWebhookSecret: 'read-write',
      testWebhookEndpoint: 'read',
      retryWebhookDelivery: 'read',
      'webhook delivery': 'read',
    });
    const deniedOf = (functionId: string) => dynamoPermissionsOf(functionId).filter((line) => line.includes('WEBHOOK_SECRETS'));
    expect(deniedOf(routeFunction(routes.find((route) => route.id === 'listWebhookEndpoints')!))).toEqual([
      `Deny dynamodb:* table if ${WEBHOOK_SECRETS_CONDITION}`,
    ]);
    expect(deniedOf(WEBHOOK_DELIVERY_FUNCTION_ID)).toEqual(
      ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'].map(
        (action) => `Deny ${action} table if ${WEBHOOK_SECRETS_CONDITION}`,
      ),
    );
  });

  it('declares credentials access for the routes that check or change a secret, and for no other', () => {
    const declared = Object.fromEntries(bound.filter((entry) => entry.table.credentials).map((entry) => [entry.name, entry.table.credentials]));
    expect(declared).toEqual({
      register: 'write',
      login: 'read',
      changePassword: 'read-write',
      startTotpEnrolment: 'read-write',
      confirmTotpEnrolment: 'read-write',
      disableTotp: 'read-write',
      verifySecondFactor: 'read-write',
      forgotPassword: 'write',
      resetPassword: 'write',
      // Removing a user deletes its credentials item with it; an administrator's reset of a second
      // factor removes its secrets and moves the item's credential version on. Neither reads one.
      deleteUser: 'write',
      resetUserMfa: 'write',
    });
  });

  it('lets no role read a credentials partition but those of the functions that verify a secret, and the tenant jobs', () => {
    const READS = new Set(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:Scan']);
    const readers = serviceFunctions()
      .map(([id]) => id)
      .filter((id) => {
        const lines = dynamoPermissionsOf(id);
        // An Allow without a condition reaches every partition; the conditioned ones name theirs (rate-limit counters, search folds, attribute updates) and read nothing.
        const allowed = lines.flatMap((line) => /^Allow (dynamodb:\w+) table$/.exec(line)?.[1] ?? []).filter((action) => READS.has(action));
        const denied = new Set(
          lines.filter((line) => line.startsWith('Deny ') && line.endsWith(`if ${CREDENTIALS_CONDITION}`)).map((line) => line.split(' ')[1]),
        );
        return allowed.some((action) => !denied.has(action) && !denied.has('dynamodb:*'));
      });
    const verifiers = ['login', 'changePassword', 'startTotpEnrolment', 'confirmTotpEnrolment', 'disableTotp', 'verifySecondFactor'];
    expect(readers.sort()).toEqual(
      [
        ...verifiers.map((id) => routeFunction(routes.find((route) => route.id === id)!)),
        // The whole table's Scan of a deletion or an export cannot be scoped by partition: a deletion removes the credentials, an export leaves them out (lib/tenant-jobs/ownership).
        TENANT_JOB_WORKER_FUNCTION_ID,
      ].sort(),
    );
  });

  it('names the table and each index, never a wildcard resource but for X-Ray and the import and export files, and attaches no managed policy', () => {
    const importFiles = JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [importBucketId(), 'Arn'] }, '/imports/*']] });
    const exportFiles = JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [importBucketId(), 'Arn'] }, '/exports/*']] });
    const tenantFiles = ['imports', 'exports', 'tenant-exports'].map((prefix) =>
      JSON.stringify({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [importBucketId(), 'Arn'] }, `/${prefix}/*`]] }),
    );
    for (const [id] of serviceFunctions()) {
      for (const statement of statementsOfFunction(id)) {
        // X-Ray has no resource-level permissions: sending trace segments is granted on '*'.
        if (statement.Resource === '*') expect(statement.Action, id).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
        // The import files' prefix: read by the worker, put (presigned) by POST /imports, nothing else.
        else if (JSON.stringify(statement.Resource) === importFiles)
          expect([id, statement.Action]).toEqual(id === IMPORT_WORKER_FUNCTION_ID ? [id, 's3:GetObject'] : [routeFunctionId('createImport'), 's3:PutObject']);
        // The export files' prefix: written (a multipart upload) by the worker, read (presigned) by GET /exports/{id}, nothing else.
        else if (JSON.stringify(statement.Resource) === exportFiles)
          expect([id, statement.Action]).toEqual(
            id === EXPORT_WORKER_FUNCTION_ID ? [id, ['s3:AbortMultipartUpload', 's3:PutObject']] : [routeFunctionId('getExport'), 's3:GetObject'],
          );
        // The tenants' files: written and removed by the tenant jobs' worker, presigned for download by GET /tenants/{id}/exports/{exportId}.
        else if (([] as unknown[]).concat(statement.Resource).every((resource) => tenantFiles.includes(JSON.stringify(resource)))) {
          expect(
            id === TENANT_JOB_WORKER_FUNCTION_ID ||
              (id === routeFunctionId('getTenantExport') && JSON.stringify(statement.Resource) === tenantFiles[2] && statement.Action === 's3:GetObject'),
            id,
          ).toBe(true);
        } else expect(JSON.stringify(statement.Resource), id).not.toContain('*');
      }
      const roleId = only([...referencedIds(resources[id]?.Properties.Role)], 'roles of the function');
      expect(resources[roleId]?.Properties.ManagedPolicyArns, id).toBeUndefined();
    }
  });

  it("lets API Gateway invoke the route functions through one role per area that names each of the area's, and the authorizer only from this API", () => {
    const [apiId] = only(ofType('AWS::ApiGateway::RestApi'), 'APIs');
    // The routes: each method's integration runs under its area's invoker role, whose policy names exactly the area's route functions.
    const invokers = ofType('AWS::IAM::Role').filter(([id]) => id.includes('RouteInvoker'));
    expect(invokers).toHaveLength(new Set(routes.map(routeArea)).size);
    const invokable: string[] = [];
    for (const [invokerId, invoker] of invokers) {
      expect(JSON.stringify(invoker.Properties.AssumeRolePolicyDocument)).toContain('apigateway.amazonaws.com');
      // Its statements: in the role itself (InlinePolicyRole), and in any policy naming it.
      const statements = [
        ...((invoker.Properties.Policies ?? []) as { PolicyDocument: { Statement: Json[] } }[]).flatMap((policy) => policy.PolicyDocument.Statement),
        ...[...ofType('AWS::IAM::Policy'), ...ofType('AWS::IAM::ManagedPolicy')]
          .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(invokerId))
          .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement),
      ];
      const named = statements.flatMap((statement) => {
        expect(statement).toMatchObject({ Action: 'lambda:InvokeFunction', Effect: 'Allow' });
        return [...referencedIds(statement.Resource)];
      });
      // One area's functions per role.
      expect(
        new Set(named.map((functionId) => routeArea(routes.find((route) => routeFunction(route) === functionId) ?? { handler: '' }))).size,
        invokerId,
      ).toBe(1);
      invokable.push(...named);
    }
    expect(invokable.sort()).toEqual(routes.map((route) => routeFunction(route)).sort());
    for (const route of routes) {
      const integration = methodOf(route).Integration as { Type: string; Credentials: unknown };
      expect(integration.Type, route.id).toBe('AWS_PROXY');
      const [credentials] = [...referencedIds(integration.Credentials)];
      const named = invokers.find(([id]) => id === credentials)?.[1];
      expect(JSON.stringify(named?.Properties.Policies), route.id).toContain(`"${routeFunction(route)}"`);
    }
    // The authorizer and the scheduled jobs keep a resource-based permission, from this API and their rules.
    const permissions = ofType('AWS::Lambda::Permission');
    expect(permissions.length).toBeLessThanOrEqual(1 + Object.keys(jobs).length);
    for (const [id, permission] of permissions) {
      if (permission.Properties.Principal === 'events.amazonaws.com') continue;
      expect(permission.Properties.Principal, id).toBe('apigateway.amazonaws.com');
      // arn:<partition>:execute-api:<region>:<account>:<this API's id>/...
      const parts = (permission.Properties.SourceArn as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
      expect(parts, id).toEqual(expect.arrayContaining([':execute-api:', { Ref: apiId }]));
    }
  });

  it("lets each function write logs to its log group only (the route functions' shared one, or its own)", () => {
    for (const [id, fn] of serviceFunctions()) {
      const logGroup = (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref;
      const logStatements = statementsOfFunction(id).filter((statement) => asList(statement.Action).some((action) => action.startsWith('logs:')));
      expect(logStatements, id).toEqual([
        expect.objectContaining({ Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [logGroup, 'Arn'] } }),
      ]);
    }
  });

  it("lets the authorizer write nothing but a session's lastActiveAt and an API key's last use, and a TTL only on the keys' use records", () => {
    const functionId = authorizerFunction();
    expect(writeStatementsOf(functionId)).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Condition: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastActiveAt', 'lastUsedAt', 'lastUsedIp'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      }),
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Condition: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'type', 'tenantId', 'lastUsedAt', 'lastUsedIp', 'ttl'] },
          'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY_USE#*'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      }),
    ]);
  });

  it('lets every rate-limited route, and every route an API key may call, count, whatever its table actions', () => {
    expect(routes.filter(countsRequests).length).toBeGreaterThan(routes.filter((route) => route.rateLimits?.length).length);
    for (const route of routes.filter(countsRequests)) {
      expect(dynamoPermissionsOf(routeFunction(route)), route.id).toContain(RATE_LIMIT_COUNTERS);
    }
  });

  it('grants BatchWriteItem only to the searching lists, on the search partitions: no other function sends one', () => {
    for (const entry of bound) {
      expect(
        dynamoPermissionsOf(entry.functionId()).filter((line) => line.startsWith('Allow dynamodb:BatchWriteItem')),
        entry.name,
      ).toEqual(entry.searches ? [`Allow dynamodb:BatchWriteItem table if ${SEARCH_FOLD_CONDITION}`] : []);
    }
    expect(bound.filter((entry) => entry.searches).map((entry) => entry.name)).toEqual(['listSuppliers', 'listProducts']);
    expect(TABLE_WRITE_ACTIONS).toContain('BatchWriteItem');
  });

  it('lets only the token-signing routes read the signing key, and only the cursor-paging routes the cursor key', () => {
    expect(
      routes
        .filter((route) => uses(route, 'signing-key'))
        .map((route) => route.id)
        .sort(),
    ).toEqual(['changePassword', 'confirmTotpEnrolment', 'disableTotp', 'login', 'refresh', 'register', 'verifySecondFactor']);
    expect(routes.filter((route) => uses(route, 'cursor-key')).map((route) => route.id)).toEqual([
      'listTenants',
      'listUsers',
      'listInvitations',
      'listCompanies',
      'listSupplierProducts',
      'listProductSuppliers',
      'listWarehouses',
      'listProducts',
      'listCategories',
      'listMovements',
      'listTransfers',
      'listCounts',
      'getCount',
      'listUncounted',
      'listPurchaseOrders',
      'listSuggestions',
      'stockCoverage',
      'listAuditEvents',
      'listEvents',
      'listApiKeys',
      'listWebhookEndpoints',
      'listWebhookDeliveries',
    ]);
    const secrets = ofType('AWS::SecretsManager::Secret').map(([id]) => id);
    // The third is the console distribution's origin secret, which no function reads (it comes as EDGE_SECRET, resolved at deploy).
    expect(secrets).toHaveLength(3);
    const signingSecret = only(
      secrets.filter((id) => id.startsWith('SigningKey')),
      'signing key secrets',
    );
    const cursorSecret = only(
      secrets.filter((id) => id.startsWith('CursorKey')),
      'cursor key secrets',
    );
    const readableSecrets = (functionId: string) =>
      statementsOfFunction(functionId)
        .filter((statement) => asList(statement.Action).includes('secretsmanager:GetSecretValue'))
        .flatMap((statement) => [...referencedIds(statement.Resource)])
        .sort();
    for (const route of routes) {
      const functionId = routeFunction(route);
      const signs = uses(route, 'signing-key');
      const seals = uses(route, 'cursor-key');
      expect(readableSecrets(functionId), route.id).toEqual([...(seals ? [cursorSecret] : []), ...(signs ? [signingSecret] : [])].sort());
      expect(environmentOf(functionId).JWT_SIGNING_KEY_SECRET_ID, route.id).toEqual(signs ? { Ref: signingSecret } : undefined);
      expect(environmentOf(functionId).CURSOR_SECRET_ID, route.id).toEqual(seals ? { Ref: cursorSecret } : undefined);
    }
    expect(readableSecrets(authorizerFunction())).toEqual([]);
  });

  it('lets exactly the routes that send mail call SES, as the configured sender on its identity', () => {
    for (const route of routes) {
      const sesStatements = statementsOfFunction(routeFunction(route)).filter((statement) =>
        asList(statement.Action).some((action) => action.startsWith('ses:')),
      );
      if (!uses(route, 'mail')) {
        expect(sesStatements, route.id).toEqual([]);
        continue;
      }
      expect(sesStatements, route.id).toEqual([
        {
          Effect: 'Allow',
          Action: 'ses:SendEmail',
          Resource: {
            'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':identity/dev.example.com']],
          },
          Condition: { StringEquals: { 'ses:FromAddress': 'no-reply@dev.example.com' } },
        },
      ]);
    }
  });
});

describe('least privilege, evaluated as IAM evaluates it (local/bundles/iam.ts) on the synthesized policies', () => {
  const world: LocalWorld = { region: LOCAL_REGION, accountId: LOCAL_ACCOUNT, tableName: 'backoffice', stackName: 'Backoffice-dev' };
  const text = (value: string) => ({ S: value });
  const key = (pk: string, sk: string) => ({ pk: text(pk), sk: text(sk) });
  const USER = key('TENANT#t1', 'USER#u1');
  const CREDENTIALS = key(`${CREDENTIALS_PK_PREFIX}t1#u1`, 'SECRETS');

  /** IAM's decision on one DynamoDB call of a function, with the statements its role has in the template. */
  function decide(functionId: string, operation: string, body: Record<string, unknown>): Decision {
    const fn = bundles.functions.get(functionId);
    if (!fn) throw new Error(`${functionId} is not in the assembly`);
    return authorizeDynamoCall(resolvedStatements(bundles, fn, world), operation, body, dynamoContextOptions(bundles, world));
  }
  const getItem = (itemKey: object) => ({ TableName: 'backoffice', Key: itemKey });
  const batchGet = (...keys: object[]) => ({ RequestItems: { backoffice: { Keys: keys, ConsistentRead: true } } });
  const query = (pk: string) => ({ TableName: 'backoffice', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': text(pk) } });
  const update = (itemKey: object) => ({
    TableName: 'backoffice',
    Key: itemKey,
    UpdateExpression: 'SET passwordHash = :hash',
    ExpressionAttributeValues: { ':hash': text('x') },
  });
  const allowed = { allowed: true };
  const refused = (deny: 'explicit' | 'implicit') => ({ allowed: false, deny });

  it('refuses POST /companies the reads it never makes (it could read any tenant before) and keeps its writes', () => {
    expect(decide('CreateCompanyFunction', 'Query', query('TENANT#t2'))).toMatchObject(refused('implicit'));
    expect(decide('CreateCompanyFunction', 'BatchGetItem', batchGet(USER))).toMatchObject(refused('implicit'));
    expect(decide('CreateCompanyFunction', 'PutItem', { TableName: 'backoffice', Item: key('TENANT#t1', 'COMPANY#c1') })).toMatchObject(allowed);
  });

  it('refuses the public POST /auth/forgot-password a delete and the queries it never makes', () => {
    expect(decide('ForgotPasswordFunction', 'DeleteItem', getItem(USER))).toMatchObject(refused('implicit'));
    expect(decide('ForgotPasswordFunction', 'Query', query('TENANT#t1'))).toMatchObject(refused('implicit'));
    expect(decide('ForgotPasswordFunction', 'GetItem', getItem(key('EMAIL#ana@example.com', 'UNIQUE')))).toMatchObject(allowed);
  });

  it('refuses GET /auth/me every table call, and the credentials item explicitly', () => {
    expect(decide('MeFunction', 'GetItem', getItem(USER))).toMatchObject(refused('implicit'));
    expect(decide('MeFunction', 'GetItem', getItem(CREDENTIALS))).toMatchObject(refused('explicit'));
    expect(decide('MeFunction', 'BatchGetItem', batchGet(USER, CREDENTIALS))).toMatchObject(refused('explicit'));
  });

  it("lets the authorizer read a user's items in one BatchGetItem, but not with the credentials item among them", () => {
    expect(decide('AuthorizerFunction', 'BatchGetItem', batchGet(key('TENANT#t1', 'PROFILE'), USER, key('TENANT#t1#USER#u1', 'SESSION#s1')))).toMatchObject(
      allowed,
    );
    expect(decide('AuthorizerFunction', 'BatchGetItem', batchGet(USER, CREDENTIALS))).toMatchObject(refused('explicit'));
    expect(decide('AuthorizerFunction', 'GetItem', getItem(CREDENTIALS))).toMatchObject(refused('explicit'));
  });

  it('lets login read the credentials item but not write it, and forgot-password write it but not read it', () => {
    expect(decide('LoginFunction', 'GetItem', getItem(CREDENTIALS))).toMatchObject(allowed);
    // Login reads the user, its credentials and its tenant in one BatchGetItem.
    expect(decide('LoginFunction', 'BatchGetItem', batchGet(USER, CREDENTIALS))).toMatchObject(allowed);
    expect(decide('LoginFunction', 'UpdateItem', update(CREDENTIALS))).toMatchObject(refused('explicit'));
    expect(decide('ForgotPasswordFunction', 'UpdateItem', update(CREDENTIALS))).toMatchObject(allowed);
    expect(decide('ForgotPasswordFunction', 'GetItem', getItem(CREDENTIALS))).toMatchObject(refused('explicit'));
    expect(decide('ChangePasswordFunction', 'BatchGetItem', batchGet(USER, CREDENTIALS))).toMatchObject(allowed);
  });

  it("refuses every function BatchWriteItem but the tenant jobs' worker (a deletion's batches), and ConditionCheckItem to all but PATCH /users/{id}, POST /auth/refresh, POST /auth/mfa/totp, POST /auth/reset-password, POST /inventory/transfers, a count's line (and the import worker's opening stock), a supplier's product and the deletions of a supplier or product (no link left), a purchase order and a product's reorder settings, and the sales roll-up", () => {
    // PATCH /users/{id} checks the role it read when nothing changes; the refresh's rotation and the
    // step-up's pending secret are conditioned on the user's credential version (a ConditionCheck
    // on the user item: credentialsCheck, putPendingTotp). The roll-up checks the tenant's item
    // before it writes a coverage marker, and a password reset that the tenant is still active;
    // IAM keys on the partition, which the tenant's users share. A transfer checks the product
    // is as read (its coverage version) without writing it; a count's line that the balance it
    // read the system's quantity from is still that version. A supplier's product checks the
    // supplier and the product exist; their deletions, that no link was made meanwhile. A purchase
    // order checks its supplier, company and warehouse exist; reorder settings, their product.
    const checkers = new Set([
      ...routes
        .filter((route) =>
          [
            'updateUser',
            'refresh',
            'startTotpEnrolment',
            'resetPassword',
            'createTransfer',
            'setCountLine',
            'scanCount',
            'createSupplierProduct',
            'deleteSupplier',
            'deleteProduct',
            'createPurchaseOrder',
            'setReorderSettings',
          ].includes(route.id),
        )
        .map(routeFunction),
      jobFunction('salesRollup'),
      IMPORT_WORKER_FUNCTION_ID,
    ]);
    expect(checkers.size).toBe(14);
    const conditionCheck = { TransactItems: [{ ConditionCheck: { TableName: 'backoffice', Key: USER, ConditionExpression: 'attribute_exists(pk)' } }] };
    for (const functionId of bundles.functions.keys()) {
      const batchWrite = decide(functionId, 'BatchWriteItem', { RequestItems: { backoffice: [{ PutRequest: { Item: USER } }] } });
      if (functionId === TENANT_JOB_WORKER_FUNCTION_ID) expect(batchWrite, functionId).toMatchObject(allowed);
      else expect(batchWrite, functionId).toMatchObject(refused('implicit'));
      expect(decide(functionId, 'TransactWriteItems', conditionCheck).allowed, functionId).toBe(checkers.has(functionId));
    }
  });
});

describe('logs', () => {
  it('sets the stage retention (two weeks in dev) and removal on every log group', () => {
    const logGroups = ofType('AWS::Logs::LogGroup');
    // The route functions' one, one per other function (the authorizer, the jobs), the API access
    // logs, the API execution logs and the console deployment's.
    expect(logGroups).toHaveLength(1 + (serviceFunctions().length - routes.length) + 3);
    for (const [id, logGroup] of logGroups) {
      expect(logGroup.Properties.RetentionInDays, id).toBe(14);
      expect(logGroup.DeletionPolicy, id).toBe('Delete');
    }
  });

  it('creates the execution log group API Gateway would otherwise create without retention, before the stage', () => {
    const [apiId] = only(ofType('AWS::ApiGateway::RestApi'), 'APIs');
    const [executionLogsId] = only(
      ofType('AWS::Logs::LogGroup').filter(([, logGroup]) => JSON.stringify(logGroup.Properties.LogGroupName ?? '').includes('API-Gateway-Execution-Logs_')),
      'execution log groups',
    );
    expect(resources[executionLogsId]?.Properties.LogGroupName).toEqual({ 'Fn::Join': ['', ['API-Gateway-Execution-Logs_', { Ref: apiId }, '/dev']] });
    const [, stage] = only(ofType('AWS::ApiGateway::Stage'), 'stages');
    expect((stage as Resource & { DependsOn?: string[] }).DependsOn).toContain(executionLogsId);
  });
});

describe('scheduled jobs', () => {
  it('runs each job on an EventBridge schedule at its UTC time from the manifest', () => {
    for (const job of jobList) {
      const [, rule] = only(
        ofType('AWS::Events::Rule').filter(([, candidate]) => JSON.stringify(candidate.Properties.Targets).includes(`"${jobFunction(job.id)}"`)),
        `rules of ${job.id}`,
      );
      expect(rule.Properties.ScheduleExpression).toBe(`cron(${job.schedule.minute} ${job.schedule.hour} * * ? *)`);
      // An optional job is deployed with its schedule off; the default stage enables none.
      expect(rule.Properties.State, job.id).toBe('optional' in job && job.optional ? 'DISABLED' : 'ENABLED');
    }
    expect(jobs.salesRollup.schedule).toEqual({ hour: 3, minute: 15 });
    expect(jobList.filter((job) => 'optional' in job && job.optional).map((job) => job.id)).toEqual(['integrityCheck']);
  });

  it('retries a failed delivery and a failed run twice, then parks the event in the dead-letter queue', () => {
    const [queueId] = only(
      ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('JobsDeadLetterQueue')),
      "the jobs' dead-letter queue",
    );
    const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
    for (const job of jobList) {
      const functionId = jobFunction(job.id);
      template.hasResourceProperties('AWS::Events::Rule', {
        Targets: [
          {
            Arn: { 'Fn::GetAtt': [functionId, 'Arn'] },
            Id: Match.anyValue(),
            RetryPolicy: { MaximumRetryAttempts: JOB_RETRY_ATTEMPTS, MaximumEventAgeInSeconds: JOB_MAX_EVENT_AGE.toSeconds() },
            DeadLetterConfig: { Arn: queueArn },
          },
        ],
      });
      template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: { Ref: functionId },
        MaximumRetryAttempts: JOB_RETRY_ATTEMPTS,
        MaximumEventAgeInSeconds: JOB_MAX_EVENT_AGE.toSeconds(),
        DestinationConfig: { OnFailure: { Destination: queueArn } },
      });
      expect(statementsOfFunction(functionId), job.id).toEqual(
        expect.arrayContaining([expect.objectContaining({ Action: expect.arrayContaining(['sqs:SendMessage']), Resource: queueArn })]),
      );
    }
    expect(JOB_RETRY_ATTEMPTS).toBe(2);
  });

  it('keeps the dead-letter queue encrypted, TLS-only and for 14 days, and lets only its rule send to it besides the job', () => {
    const [queueId, queue] = only(
      ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('JobsDeadLetterQueue')),
      "the jobs' dead-letter queue",
    );
    const rules = ofType('AWS::Events::Rule').map(([id]) => id);
    expect(rules).toHaveLength(jobList.length);
    expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    const [, policy] = only(
      ofType('AWS::SQS::QueuePolicy').filter(([id]) => id.startsWith('JobsDeadLetterQueue')),
      "the jobs' dead-letter queue's policy",
    );
    const statements = (policy.Properties.PolicyDocument as { Statement: Json[] }).Statement;
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Effect: 'Deny',
          Action: 'sqs:*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
          Resource: { 'Fn::GetAtt': [queueId, 'Arn'] },
        }),
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: 'events.amazonaws.com' },
          Action: 'sqs:SendMessage',
          Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [rules[0], 'Arn'] } } },
        }),
      ]),
    );
    // One statement per job's rule, each naming its own.
    const senders = statements
      .filter((statement) => (statement as { Effect?: string }).Effect === 'Allow' && (statement as { Principal?: unknown }).Principal !== undefined)
      .map((statement) => JSON.stringify((statement as { Condition?: unknown }).Condition));
    expect(senders.sort()).toEqual(rules.map((rule) => JSON.stringify({ ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [rule, 'Arn'] } } })).sort());
  });
});

describe('alarms', () => {
  type AlarmProperties = Json & { MetricName?: string; Namespace?: string; Dimensions?: { Name: string; Value: unknown }[]; Metrics?: Json[] };
  const alarms = (): AlarmProperties[] => ofType('AWS::CloudWatch::Alarm').map(([, alarm]) => alarm.Properties as AlarmProperties);

  it('alarms on the Errors of every function except the authorizer, at the first error, ten functions per alarm', () => {
    type MetricStat = {
      MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions: { Name: string; Value: { Ref: string } }[] }; Stat: string; Period: number };
    };
    const lambdaErrors = (alarm: AlarmProperties) =>
      ((alarm.Metrics ?? []) as MetricStat[]).filter(
        (metric) => metric.MetricStat?.Metric.Namespace === 'AWS/Lambda' && metric.MetricStat.Metric.MetricName === 'Errors',
      );
    const errorAlarms = alarms().filter((alarm) => lambdaErrors(alarm).length > 0);
    const watched = errorAlarms.flatMap((alarm) =>
      lambdaErrors(alarm).map((metric) => metric.MetricStat?.Metric.Dimensions.find((dimension) => dimension.Name === 'FunctionName')?.Value.Ref),
    );
    const expected = serviceFunctions()
      .map(([id]) => id)
      .filter((id) => id !== authorizerFunction());
    // Each function in exactly one alarm.
    expect(watched.sort()).toEqual(expected.sort());
    expect(errorAlarms).toHaveLength(Math.ceil(expected.length / FUNCTIONS_PER_ERRORS_ALARM));
    for (const alarm of errorAlarms) {
      const metrics = lambdaErrors(alarm);
      expect(metrics.length).toBeLessThanOrEqual(FUNCTIONS_PER_ERRORS_ALARM);
      for (const metric of metrics) expect(metric.MetricStat).toMatchObject({ Stat: 'Sum', Period: 300 });
      // The sum of the group's errors, a missing one counting 0.
      const [sum] = ((alarm.Metrics ?? []) as { Expression?: string; ReturnData?: boolean }[]).filter((metric) => metric.Expression !== undefined);
      expect(sum?.Expression).toBe(metrics.map((_, index) => `FILL(f${index}, 0)`).join(' + '));
      expect(alarm).toMatchObject({
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        TreatMissingData: 'notBreaching',
        EvaluationPeriods: 1,
      });
      expect(String(alarm.AlarmDescription)).toContain('threw or timed out');
    }
  });

  it("alarms on the authorizer's failures through its log, since its Errors also count every 401", () => {
    const [, filter] = only(ofType('AWS::Logs::MetricFilter'), 'metric filters');
    const authorizerLogs = (resources[authorizerFunction()]?.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup;
    expect(filter.Properties).toMatchObject({ LogGroupName: authorizerLogs, FilterPattern: `"${AUTHORIZER_FAILURE_LOG_MESSAGE}"` });
    const { MetricName, MetricNamespace } = (filter.Properties.MetricTransformations as { MetricName: string; MetricNamespace: string }[])[0]!;
    expect(alarms()).toEqual(expect.arrayContaining([expect.objectContaining({ MetricName, Namespace: MetricNamespace, Threshold: 1 })]));
    // The filter matches the line the authorizer really logs on a failure.
    expect(readFileSync(fromRoot(authorizerManifest.handler), 'utf8')).toContain(`logger.error('${AUTHORIZER_FAILURE_LOG_MESSAGE}'`);
  });

  it('alarms on API Gateway 5XXError of the stage', () => {
    const [apiId, api] = only(ofType('AWS::ApiGateway::RestApi'), 'APIs');
    const [stageId] = only(ofType('AWS::ApiGateway::Stage'), 'stages');
    expect(api.Properties.Name).toBe('Backoffice-dev');
    expect(apiId).toBeDefined();
    expect(alarms()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Namespace: 'AWS/ApiGateway',
          MetricName: '5XXError',
          Dimensions: [
            { Name: 'ApiName', Value: 'Backoffice-dev' },
            { Name: 'Stage', Value: { Ref: stageId } },
          ],
          Threshold: 1,
        }),
      ]),
    );
  });

  it('alarms on DynamoDB read and write throttles of the table and its index', () => {
    const [tableId] = only(ofType('AWS::DynamoDB::GlobalTable'), 'tables');
    const [alarm] = alarms().filter((candidate) => JSON.stringify(candidate.Metrics ?? []).includes('ThrottleEvents'));
    const metrics = (alarm?.Metrics ?? []).flatMap((metric) => {
      const stat = (metric as { MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string; Value: unknown }[] } } }).MetricStat;
      return stat
        ? [`${stat.Metric.MetricName} ${stat.Metric.Dimensions.map((dimension) => `${dimension.Name}=${JSON.stringify(dimension.Value)}`).join(' ')}`]
        : [];
    });
    const table = `TableName=${JSON.stringify({ Ref: tableId })}`;
    expect(metrics.sort()).toEqual(
      [
        `ReadThrottleEvents ${table}`,
        `WriteThrottleEvents ${table}`,
        `ReadThrottleEvents GlobalSecondaryIndexName="gsi1" ${table}`,
        `WriteThrottleEvents GlobalSecondaryIndexName="gsi1" ${table}`,
      ].sort(),
    );
    expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('alarms as soon as the dead-letter queue holds a message', () => {
    const [queueId] = only(
      ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('JobsDeadLetterQueue')),
      "the jobs' dead-letter queue",
    );
    expect(alarms()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Namespace: 'AWS/SQS',
          MetricName: 'ApproximateNumberOfMessagesVisible',
          Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
          Statistic: 'Maximum',
          Threshold: 0,
          ComparisonOperator: 'GreaterThanThreshold',
        }),
      ]),
    );
  });

  it("alarms on a spike of failed sign-ins and on any refresh-token reuse, from the functions' own metrics", () => {
    const own = {
      Namespace: 'Backoffice/Backoffice-dev',
      Statistic: 'Sum',
      Period: 300,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    };
    expect(alarms()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          ...own,
          MetricName: METRICS.logins.name,
          Dimensions: [
            { Name: 'outcome', Value: 'failure' },
            { Name: 'service', Value: METRICS_SERVICE },
          ],
          Threshold: DEFAULT_LOGIN_FAILURE_ALARM_THRESHOLD,
        }),
        expect.objectContaining({ ...own, MetricName: METRICS.refreshReuse.name, Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }], Threshold: 1 }),
        // The nightly integrity check reports once a day: a day's sum, so the alarm holds until the next run.
        expect.objectContaining({
          ...own,
          Period: 86_400,
          MetricName: METRICS.integrityDrift.name,
          Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }],
          Threshold: 1,
        }),
      ]),
    );
  });

  it('draws one operations dashboard with every metric of the catalogue', () => {
    const [, dashboard] = only(ofType('AWS::CloudWatch::Dashboard'), 'dashboards');
    expect(dashboard.Properties.DashboardName).toBe('Backoffice-dev-operations');
    // The body is JSON text joined with references (the stage, the table): those become placeholders.
    const parts = (dashboard.Properties.DashboardBody as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
    const body = parts.map((part) => (typeof part === 'string' ? part : '"REF"')).join('');
    for (const metric of Object.values(METRICS)) {
      // By dimension: a SEARCH over the stack's namespace; without one: the metric itself.
      expect(body, metric.name).toContain(
        metric.dimension ? `{Backoffice/Backoffice-dev,service,${metric.dimension}} MetricName=\\"${metric.name}\\"` : `"${metric.name}"`,
      );
    }
    for (const metric of ['"Count"', '"4XXError"', '"5XXError"', '"Latency"', '"ReadThrottleEvents"']) expect(body, metric).toContain(metric);
  });

  it('notifies no topic in dev unless one is configured', () => {
    template.resourceCountIs('AWS::SNS::Topic', 0);
    for (const alarm of alarms()) expect(alarm.AlarmActions).toBeUndefined();
  });
});

describe("the console on the API's origin", () => {
  const distributionId = () => only(ofType('AWS::CloudFront::Distribution'), 'distributions')[0];
  const config = () => resources[distributionId()]?.Properties.DistributionConfig as Json;
  const behaviours = () => config().CacheBehaviors as Json[];
  const behaviour = (pattern: string) =>
    only(
      behaviours().filter((entry) => entry.PathPattern === pattern),
      pattern,
    );
  const origin = (id: unknown) =>
    only(
      (config().Origins as Json[]).filter((entry) => entry.Id === id),
      `origin ${String(id)}`,
    );
  const bucketId = () =>
    only(
      ofType('AWS::S3::Bucket').filter(([id]) => id.startsWith('Console')),
      'console buckets',
    )[0];

  const cloudFrontFunction = (name: 'SpaRewrite' | 'ViewerAddress') =>
    only(
      ofType('AWS::CloudFront::Function').filter(([id]) => id.startsWith(`Console${name}`)),
      `CloudFront function ${name}`,
    );
  type ViewerRequest = { uri: string; headers: Record<string, { value: string }> };

  /** A viewer-request function as deployed, run as CloudFront runs it: `handler(event)` returns the request. */
  function run(name: 'SpaRewrite' | 'ViewerAddress', request: ViewerRequest, viewerIp = '203.0.113.7'): ViewerRequest {
    const [, fn] = cloudFrontFunction(name);
    type Handler = (event: { request: ViewerRequest; viewer: { ip: string } }) => ViewerRequest;
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the function's own code, from the template
    const load = new Function(`${String(fn.Properties.FunctionCode)}\nreturn handler;`) as () => Handler;
    return load()({ request, viewer: { ip: viewerIp } });
  }
  const rewrite = (uri: string): string => run('SpaRewrite', { uri, headers: {} }).uri;

  it("forwards everything else to the REST API's execute-api host and stage, uncached, with cookies, query strings and every header but Host", () => {
    const [apiId] = only(ofType('AWS::ApiGateway::RestApi'), 'APIs');
    const fallback = config().DefaultCacheBehavior as Json;
    expect(fallback).toMatchObject({
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      ViewerProtocolPolicy: 'redirect-to-https',
    });
    // The functions set their own security headers; the distribution adds none to the API's answers.
    expect(fallback.ResponseHeadersPolicyId).toBeUndefined();
    expect(fallback.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [cloudFrontFunction('ViewerAddress')[0], 'FunctionARN'] } },
    ]);
    const [secretId] = only(
      ofType('AWS::SecretsManager::Secret').filter(([id]) => id.startsWith('ConsoleEdgeSecret')),
      'edge secrets',
    );
    const edgeSecret = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };
    expect(origin(fallback.TargetOriginId)).toMatchObject({
      DomainName: { 'Fn::Join': ['', [{ Ref: apiId }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] },
      OriginPath: '/dev',
      CustomOriginConfig: { OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] },
      // Proof that a request came through the distribution, read at deploy: the template holds no secret.
      OriginCustomHeaders: [{ HeaderName: EDGE_SECRET_HEADER, HeaderValue: edgeSecret }],
    });
    // Every function can tell such a request, and so believe the viewer address it carries.
    for (const route of routes) expect(environmentOf(routeFunction(route)).EDGE_SECRET, route.id).toEqual(edgeSecret);
  });

  it("gives the API the viewer's address in a header the viewer cannot set", () => {
    const forged = { uri: '/auth/login', headers: { [VIEWER_ADDRESS_HEADER]: { value: '198.51.100.66' }, cookie: { value: 'a=b' } } };
    expect(run('ViewerAddress', forged, '203.0.113.7')).toEqual({
      uri: '/auth/login',
      headers: { [VIEWER_ADDRESS_HEADER]: { value: '203.0.113.7' }, cookie: { value: 'a=b' } },
    });
    expect(run('ViewerAddress', { uri: '/companies', headers: {} }, '2001:db8::7').headers[VIEWER_ADDRESS_HEADER]).toEqual({ value: '2001:db8::7' });
  });

  it("refers to the RestApi alone, never its stage or deployment, so the functions can hold the distribution's domain", () => {
    const referenced = referencedIds(resources[distributionId()]?.Properties);
    for (const type of ['AWS::ApiGateway::Stage', 'AWS::ApiGateway::Deployment', 'AWS::ApiGateway::Method', 'AWS::Lambda::Function']) {
      expect(
        [...referenced].filter((id) => resources[id]?.Type === type),
        type,
      ).toEqual([]);
    }
    expect(dependencyCycle()).toBeUndefined();
  });

  it('serves /console/assets/* from the bucket through Origin Access Control, cached, before the pages', () => {
    expect(behaviours().map((entry) => entry.PathPattern)).toEqual(['/console/assets/*', '/console', '/console/*']);
    const assets = behaviour('/console/assets/*');
    expect(assets).toMatchObject({
      AllowedMethods: ['GET', 'HEAD'],
      CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      ViewerProtocolPolicy: 'redirect-to-https',
    });
    expect(assets.FunctionAssociations).toBeUndefined();
    const bucketOrigin = origin(assets.TargetOriginId);
    expect(bucketOrigin).toMatchObject({ DomainName: { 'Fn::GetAtt': [bucketId(), 'RegionalDomainName'] }, S3OriginConfig: { OriginAccessIdentity: '' } });
    const [oacId, oac] = only(ofType('AWS::CloudFront::OriginAccessControl'), 'origin access controls');
    expect(bucketOrigin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [oacId, 'Id'] });
    expect(oac.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
  });

  it('serves /console and /console/* from the same bucket uncached, through the deep-link rewrite, and sets no error pages', () => {
    const [functionId, fn] = cloudFrontFunction('SpaRewrite');
    expect(fn.Properties.FunctionConfig).toMatchObject({ Runtime: 'cloudfront-js-2.0' });
    const assetsOrigin = behaviour('/console/assets/*').TargetOriginId;
    for (const pattern of ['/console', '/console/*']) {
      expect(behaviour(pattern), pattern).toMatchObject({
        TargetOriginId: assetsOrigin,
        AllowedMethods: ['GET', 'HEAD'],
        CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
        FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } }],
      });
    }
    // Distribution-wide error responses would also replace the API's own 403 and 404 problems.
    expect(config().CustomErrorResponses).toBeUndefined();
    expect(config().DefaultRootObject).toBeUndefined();
    expect(config()).toMatchObject({ HttpVersion: 'http2and3', PriceClass: 'PriceClass_100', Enabled: true });
  });

  it('rewrites every console path to /console/index.html but the built files under /console/assets/', () => {
    expect(rewrite('/console')).toBe('/console/index.html');
    expect(rewrite('/console/')).toBe('/console/index.html');
    expect(rewrite('/console/suppliers')).toBe('/console/index.html');
    expect(rewrite('/console/reset-password')).toBe('/console/index.html');
    expect(rewrite('/console/inventory/products/01J9Z')).toBe('/console/index.html');
    expect(rewrite('/console/assets/index-abc.js')).toBe('/console/assets/index-abc.js');
    expect(rewrite('/console/assets/index-abc.css')).toBe('/console/assets/index-abc.css');
    expect(rewrite('/console/assetsx')).toBe('/console/index.html');
  });

  it('sends the strict security headers on every console answer', () => {
    const [policyId, policy] = only(ofType('AWS::CloudFront::ResponseHeadersPolicy'), 'response headers policies');
    for (const pattern of ['/console/assets/*', '/console', '/console/*'])
      expect(behaviour(pattern).ResponseHeadersPolicyId, pattern).toEqual({ Ref: policyId });
    const headers = policy.Properties.ResponseHeadersPolicyConfig as Json;
    expect(headers.SecurityHeadersConfig).toEqual({
      // The console calls its own origin, and PUTs import files to the imports bucket (its name, not a wildcard of S3).
      ContentSecurityPolicy: {
        ContentSecurityPolicy: {
          'Fn::Join': [
            '',
            [
              "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' https://backoffice-dev-imports-",
              { Ref: 'AWS::AccountId' },
              '-',
              { Ref: 'AWS::Region' },
              '.s3.',
              { Ref: 'AWS::Region' },
              ".amazonaws.com; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
            ],
          ],
        },
        Override: true,
      },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63_072_000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    const custom = (headers.CustomHeadersConfig as { Items: { Header: string; Value: string }[] }).Items;
    const permissions = custom.find((header) => header.Header === 'Permissions-Policy')?.Value ?? '';
    for (const feature of ['microphone', 'geolocation', 'payment', 'usb']) expect(permissions).toContain(`${feature}=()`);
    // The count page reads barcodes with the camera: the console's own origin may ask, nothing it loads.
    expect(permissions).toContain('camera=(self)');
  });

  it('keeps the bucket private, TLS-only and encrypted, readable by this distribution alone, and emptied on deletion in dev', () => {
    const [id, bucket] = only(
      ofType('AWS::S3::Bucket').filter(([bucketLogicalId]) => bucketLogicalId.startsWith('Console')),
      'console buckets',
    );
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
    });
    expect(bucket.DeletionPolicy, id).toBe('Delete');
    const [, policy] = only(
      ofType('AWS::S3::BucketPolicy').filter(([, one]) => referencedIds(one.Properties.Bucket).has(id)),
      'console bucket policies',
    );
    const statements = (policy.Properties.PolicyDocument as { Statement: Statement[] }).Statement;
    expect(statements).toContainEqual(expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
    const allows = statements.filter((statement) => statement.Effect === 'Allow') as unknown as Json[];
    const [autoDeleteRole] = ofType('AWS::IAM::Role')
      .map(([roleId]) => roleId)
      .filter((roleId) => roleId.startsWith('CustomS3AutoDeleteObjects'));
    expect(allows).toHaveLength(2);
    expect(allows).toContainEqual(
      expect.objectContaining({
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Action: 's3:GetObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [id, 'Arn'] }, '/*']] },
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':cloudfront::', { Ref: 'AWS::AccountId' }, ':distribution/', { Ref: distributionId() }]],
            },
          },
        },
      }),
    );
    // dev only (DESTROY): CDK's handler that empties the bucket when the stack is deleted.
    expect(allows).toContainEqual(expect.objectContaining({ Principal: { AWS: { 'Fn::GetAtt': [autoDeleteRole, 'Arn'] } } }));
  });

  it('uploads the build under console/: the hashed assets immutable and never pruned, then the page with no-cache', () => {
    const deployments = ofType('Custom::CDKBucketDeployment');
    expect(deployments).toHaveLength(2);
    const [assetsId, assets] = only(
      deployments.filter(([, deployment]) => JSON.stringify(deployment.Properties.Include) === '["assets/*"]'),
      'assets deployment',
    );
    const [, shell] = only(
      deployments.filter(([deploymentId]) => deploymentId !== assetsId),
      'page deployment',
    );
    expect(assets.Properties).toMatchObject({
      DestinationBucketName: { Ref: bucketId() },
      DestinationBucketKeyPrefix: 'console/',
      Exclude: ['*'],
      Prune: false,
      SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' },
    });
    expect(shell.Properties).toMatchObject({
      DestinationBucketName: { Ref: bucketId() },
      DestinationBucketKeyPrefix: 'console/',
      Exclude: ['assets/*'],
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
    // One build, uploaded twice; the page after the assets it refers to.
    expect(shell.Properties.SourceObjectKeys).toEqual(assets.Properties.SourceObjectKeys);
    expect([shell.DependsOn ?? []].flat()).toContain(assetsId);
  });

  it('built the console into the assembly: index.html refers to its files under /console/assets/', () => {
    const [, assets] = only(
      ofType('Custom::CDKBucketDeployment').filter(([, deployment]) => JSON.stringify(deployment.Properties.Include) === '["assets/*"]'),
      'assets deployment',
    );
    const key = String((assets.Properties.SourceObjectKeys as string[])[0]).replace(/\.zip$/, '');
    const built = path.join(outdir, `asset.${key}`);
    const html = readFileSync(path.join(built, 'index.html'), 'utf8');
    expect(html).toMatch(/(src|href)="\/console\/assets\/[^"]+"/);
    expect(html).not.toMatch(/(src|href)="\/assets\//);
  });

  it("gives CDK's custom-resource handlers only: the console's deployment, the import bucket's notification and, in dev, the buckets' auto-delete", () => {
    const handlers = ofType('AWS::Lambda::Function').filter(([id]) => !serviceFunctions().some(([serviceId]) => serviceId === id));
    expect(handlers.map(([id]) => id.replace(/([0-9A-F]{8,}|[0-9a-f]{32}).*$/, '')).sort()).toEqual([
      'BucketNotificationsHandler',
      'CustomCDKBucketDeployment',
      'CustomS3AutoDeleteObjectsCustomResourceProviderHandler',
    ]);
  });
});

describe('AWS Solutions checks (cdk-nag)', () => {
  it('ran on the stack', () => {
    expect(report.pluginReports.map((pluginReport) => pluginReport.pluginName)).toEqual(expect.arrayContaining(['Construct Annotations']));
  });

  it('leaves no unacknowledged AwsSolutions error or warning', () => {
    expect(violationsOf(report, 'AwsSolutions')).toEqual([]);
  });

  it("ran cfn-guard's Control Tower rules beside it, and left no unacknowledged finding", () => {
    expect(report.pluginReports).toEqual(expect.arrayContaining([expect.objectContaining({ pluginName: 'cdk-validator-cfnguard', conclusion: 'success' })]));
    expect(violationsOf(report, 'cdk-validator-cfnguard')).toEqual([]);
  });

  it('gives cfn-guard the rules of every resource type of the stack', () => {
    expect(missingControlTowerRuleFolders(template)).toEqual([]);
  });

  it('reports nothing but the placeholder key set warning of the dev defaults', () => {
    expect(violationsOf(report, '')).toEqual(['Annotation::backoffice:placeholderJwks (warning) at Backoffice-dev']);
  });

  it('prints, under `cdk synth --quiet`, only that warning: no bundling progress, no esbuild summaries', async () => {
    const { stderr } = await sharedSynthesis();
    // npx's own update notices are npm's, not the app's.
    expect(
      stderr
        .trimEnd()
        .split('\n')
        .filter((line) => !line.startsWith('npm notice')),
    ).toEqual([
      expect.stringMatching(/^infra\/backoffice-app\.ts:\d+:\d+$/),
      expect.stringMatching(/^WARNING JWT_PUBLIC_KEYS is the empty placeholder key set: .* \(Annotation\)$/),
      '   Backoffice-dev aws-cdk-lib.Stack',
      "   Acknowledge with 'Annotation::backoffice:placeholderJwks'",
    ]);
  });
});

describe('sam local invoke', () => {
  const deployDoc = () => readFileSync(fromRoot('docs/deploy.md'), 'utf8');

  it('documents the exact command for every function, with its logical id and an existing sample event', () => {
    const handlers = new Map<string, string>([
      [authorizerFunction(), authorizerManifest.handler],
      ...routes.map((route) => [`${areaStackId(routeArea(route))}/${routeFunction(route)}`, route.handler] as [string, string]),
      ...jobList.map((job) => [jobFunction(job.id), job.handler] as [string, string]),
    ]);
    for (const [logicalId, handler] of handlers) {
      const eventFile = `events/${path.basename(handler, '.ts')}.json`;
      expect(existsSync(fromRoot(eventFile)), eventFile).toBe(true);
      expect(deployDoc(), logicalId).toContain(`sam local invoke -t cdk.out/Backoffice-dev.template.json ${logicalId} -e ${eventFile}`);
    }
  });
});

describe('outputs', () => {
  it('exports the console and API URLs on the distribution, the table name, the signing- and cursor-key secrets and the dead-letter queue', () => {
    const [distributionId] = only(ofType('AWS::CloudFront::Distribution'), 'distributions');
    template.hasOutput('ConsoleUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/console/']] } });
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/']] } });
    template.hasOutput('TableName', { Value: { Ref: only(ofType('AWS::DynamoDB::GlobalTable'), 'tables')[0] } });
    const secrets = ofType('AWS::SecretsManager::Secret').map(([id]) => id);
    template.hasOutput('SigningKeySecretArn', {
      Value: {
        Ref: only(
          secrets.filter((id) => id.startsWith('SigningKey')),
          'signing key secrets',
        ),
      },
    });
    template.hasOutput('CursorKeySecretArn', {
      Value: {
        Ref: only(
          secrets.filter((id) => id.startsWith('CursorKey')),
          'cursor key secrets',
        ),
      },
    });
    template.hasOutput('JobsDeadLetterQueueUrl', {
      Value: {
        Ref: only(
          ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('JobsDeadLetterQueue')),
          "the jobs' dead-letter queue",
        )[0],
      },
    });
    template.hasOutput('ImportsDeadLetterQueueUrl', {
      Value: {
        Ref: only(
          ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith('ImportsDeadLetterQueue')),
          "the imports' dead-letter queue",
        )[0],
      },
    });
  });
});

describe('webhook delivery', () => {
  const queueNamed = (prefix: string) =>
    only(
      ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith(prefix)),
      prefix,
    );

  it('streams each new item of the table, and pipes only the inserts of event items to the delivery queue, parking what it cannot forward', () => {
    const [tableId, table] = only(ofType('AWS::DynamoDB::GlobalTable'), 'tables');
    expect(table.Properties.StreamSpecification).toEqual({ StreamViewType: 'NEW_IMAGE' });
    const [, pipe] = only(ofType('AWS::Pipes::Pipe'), 'pipes');
    const [queueId] = queueNamed('WebhooksQueue');
    const [deadId] = queueNamed('WebhooksDeadLetterQueue');
    expect([...referencedIds(pipe.Properties.Source)]).toEqual([tableId]);
    expect([...referencedIds(pipe.Properties.Target)]).toEqual([queueId]);
    const source = pipe.Properties.SourceParameters as {
      DynamoDBStreamParameters: Record<string, unknown>;
      FilterCriteria: { Filters: { Pattern: string }[] };
    };
    expect(source.FilterCriteria.Filters.map((filter) => JSON.parse(filter.Pattern) as unknown)).toEqual([
      { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: ['Event'] } } } },
    ]);
    expect(source.DynamoDBStreamParameters).toMatchObject({ StartingPosition: 'TRIM_HORIZON', BatchSize: 1 });
    expect([...referencedIds(source.DynamoDBStreamParameters.DeadLetterConfig)]).toEqual([deadId]);
  });

  it('feeds the delivery function from the queue in batches with partial failures and a concurrency cap; a message received 5 times goes to the dead-letter queue', () => {
    const [queueId, queue] = queueNamed('WebhooksQueue');
    const [deadId] = queueNamed('WebhooksDeadLetterQueue');
    expect(queue.Properties).toMatchObject({ VisibilityTimeout: 360, SqsManagedSseEnabled: true, RedrivePolicy: { maxReceiveCount: 5 } });
    expect([...referencedIds((queue.Properties.RedrivePolicy as { deadLetterTargetArn: unknown }).deadLetterTargetArn)]).toEqual([deadId]);
    const [, mapping] = only(
      ofType('AWS::Lambda::EventSourceMapping').filter(([, one]) => referencedIds(one.Properties.EventSourceArn).has(queueId)),
      'mappings',
    );
    expect(mapping.Properties).toMatchObject({ BatchSize: 10, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: 20 } });
    expect([...referencedIds(mapping.Properties.FunctionName)]).toEqual([WEBHOOK_DELIVERY_FUNCTION_ID]);
    expect(resources[WEBHOOK_DELIVERY_FUNCTION_ID]?.Properties).toMatchObject({ Timeout: 60 });
    expect([...referencedIds(environmentOf(WEBHOOK_DELIVERY_FUNCTION_ID).WEBHOOK_QUEUE_URL)]).toEqual([queueId]);
  });

  it('lets the delivery function send its wake-ups to its queue and mail the administrators, and waits 20 s in the routes that send while the caller waits', () => {
    const actions = statementsOfFunction(WEBHOOK_DELIVERY_FUNCTION_ID).flatMap((statement) => asList(statement.Action));
    expect(actions).toEqual(expect.arrayContaining(['sqs:SendMessage', 'ses:SendEmail', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    for (const id of ['testWebhookEndpoint', 'retryWebhookDelivery']) expect(resources[routeFunctionId(id)]?.Properties.Timeout, id).toBe(20);
  });

  it('alarms on the dead-letter queue and on most attempts failing, and ranks failing endpoints from the log', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([id]) => id);
    for (const name of ['ObservabilityWebhookDeadLetterQueue', 'ObservabilityWebhookFailureRate']) {
      expect(
        alarms.filter((id) => id.startsWith(name)),
        name,
      ).toHaveLength(1);
    }
    const errorsAlarm = ofType('AWS::CloudWatch::Alarm').filter(
      ([id, alarm]) => id.startsWith('ObservabilityFunctionErrors') && referencedIds(alarm.Properties.Metrics).has(WEBHOOK_DELIVERY_FUNCTION_ID),
    );
    expect(errorsAlarm).toHaveLength(1);
    const [, rule] = only(ofType('AWS::CloudWatch::InsightRule'), 'insight rules');
    const body = JSON.stringify(rule.Properties.RuleBody);
    expect(body).toContain('$.endpointId');
    expect(body).toContain('no_answer');
  });
});

describe('imports', () => {
  const queueNamed = (prefix: string) =>
    only(
      ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith(prefix)),
      prefix,
    );

  it('keeps the files in a private, TLS-only, encrypted bucket that expires them after 30 days and takes PUTs from the allowed origins', () => {
    const bucket = resources[importBucketId()];
    expect(bucket?.Properties).toMatchObject({
      // Named from the stack, account and region: the console's CSP names it (infra/constructs/imports.ts).
      BucketName: { 'Fn::Join': ['', ['backoffice-dev-imports-', { Ref: 'AWS::AccountId' }, '-', { Ref: 'AWS::Region' }]] },
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      CorsConfiguration: { CorsRules: [{ AllowedMethods: ['PUT'], AllowedHeaders: ['content-type'], MaxAge: 3600 }] },
    });
    const rules = (bucket?.Properties.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules).toContainEqual({ Id: 'ExpireImportFiles', Prefix: 'imports/', ExpirationInDays: 30, Status: 'Enabled' });
    const policy = only(
      ofType('AWS::S3::BucketPolicy').filter(([, one]) => referencedIds(one.Properties.Bucket).has(importBucketId())),
      'import bucket policies',
    )[1];
    expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('"aws:SecureTransport":"false"');
  });

  it("sends the bucket's notice of each new file under imports/ to the import queue, which feeds the worker one message at a time, two at most at once", () => {
    const [queueId, queue] = queueNamed('ImportsQueue');
    const [deadId] = queueNamed('ImportsDeadLetterQueue');
    const [, notifications] = only(ofType('Custom::S3BucketNotifications'), 'bucket notifications');
    expect([...referencedIds(notifications.Properties.BucketName)]).toEqual([importBucketId()]);
    const queues = (notifications.Properties.NotificationConfiguration as { QueueConfigurations: Json[] }).QueueConfigurations;
    expect(queues).toEqual([
      { Events: ['s3:ObjectCreated:Put'], Filter: { Key: { FilterRules: [{ Name: 'prefix', Value: 'imports/' }] } }, QueueArn: expect.anything() as unknown },
    ]);
    expect([...referencedIds(queues[0]?.QueueArn)]).toEqual([queueId]);
    expect(queue.Properties).toMatchObject({ VisibilityTimeout: 360, SqsManagedSseEnabled: true, RedrivePolicy: { maxReceiveCount: 5 } });
    expect([...referencedIds((queue.Properties.RedrivePolicy as { deadLetterTargetArn: unknown }).deadLetterTargetArn)]).toEqual([deadId]);
    const [, mapping] = only(
      ofType('AWS::Lambda::EventSourceMapping').filter(([, one]) => referencedIds(one.Properties.EventSourceArn).has(queueId)),
      'mappings',
    );
    expect(mapping.Properties).toMatchObject({ BatchSize: 1, FunctionResponseTypes: ['ReportBatchItemFailures'], ScalingConfig: { MaximumConcurrency: 2 } });
    expect([...referencedIds(mapping.Properties.FunctionName)]).toEqual([IMPORT_WORKER_FUNCTION_ID]);
    expect(resources[IMPORT_WORKER_FUNCTION_ID]?.Properties).toMatchObject({ Timeout: 60 });
    expect([...referencedIds(environmentOf(IMPORT_WORKER_FUNCTION_ID).IMPORT_QUEUE_URL)]).toEqual([queueId]);
    expect([...referencedIds(environmentOf(IMPORT_WORKER_FUNCTION_ID).IMPORT_BUCKET)]).toEqual([importBucketId()]);
  });

  it('names the bucket to POST /imports alone among the routes, and lets the worker send its next steps', () => {
    const withBucket = routes.map((route) => routeFunction(route)).filter((id) => environmentOf(id).IMPORT_BUCKET !== undefined);
    // And GET /tenants/{id}/exports/{exportId}, which presigns an export's downloads (infra/constructs/tenant-jobs).
    expect(withBucket.sort()).toEqual([routeFunctionId('createImport'), routeFunctionId('getTenantExport')].sort());
    const actions = statementsOfFunction(IMPORT_WORKER_FUNCTION_ID).flatMap((statement) => asList(statement.Action));
    expect(actions).toEqual(expect.arrayContaining(['sqs:SendMessage', 's3:GetObject', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(actions).not.toContain('s3:PutObject');
  });

  it('alarms on the dead-letter queue and counts the worker in the errors alarms', () => {
    expect(ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('ObservabilityImportDeadLetterQueue'))).toHaveLength(1);
    const errorsAlarm = ofType('AWS::CloudWatch::Alarm').filter(
      ([id, alarm]) => id.startsWith('ObservabilityFunctionErrors') && referencedIds(alarm.Properties.Metrics).has(IMPORT_WORKER_FUNCTION_ID),
    );
    expect(errorsAlarm).toHaveLength(1);
  });
});

describe('exports', () => {
  const queueNamed = (prefix: string) =>
    only(
      ofType('AWS::SQS::Queue').filter(([id]) => id.startsWith(prefix)),
      prefix,
    );

  it('keeps the files in the imports bucket under exports/, expired after 7 days, outside the prefix its notice starts imports from', () => {
    const rules = (resources[importBucketId()]?.Properties.LifecycleConfiguration as { Rules: Json[] }).Rules;
    expect(rules).toContainEqual({ Id: 'ExpireExportFiles', Prefix: 'exports/', ExpirationInDays: 7, Status: 'Enabled' });
    // A tenant's whole export too.
    expect(rules).toContainEqual({ Id: 'ExpireTenantExports', Prefix: 'tenant-exports/', ExpirationInDays: 7, Status: 'Enabled' });
    // Parts of an upload cut short are removed by the bucket's own rule.
    expect(rules).toContainEqual({ Id: 'AbortIncompleteUploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' });
  });

  it('feeds the worker from the export queue one whole export at a time, two at most at once, with a dead-letter queue after 3 receives', () => {
    const [queueId, queue] = queueNamed('ExportsQueue');
    const [deadId] = queueNamed('ExportsDeadLetterQueue');
    expect(queue.Properties).toMatchObject({ VisibilityTimeout: 1800, SqsManagedSseEnabled: true, RedrivePolicy: { maxReceiveCount: 3 } });
    expect([...referencedIds((queue.Properties.RedrivePolicy as { deadLetterTargetArn: unknown }).deadLetterTargetArn)]).toEqual([deadId]);
    const [, mapping] = only(
      ofType('AWS::Lambda::EventSourceMapping').filter(([, one]) => referencedIds(one.Properties.EventSourceArn).has(queueId)),
      'mappings',
    );
    expect(mapping.Properties).toMatchObject({
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: EXPORT_MAX_CONCURRENCY },
    });
    expect([...referencedIds(mapping.Properties.FunctionName)]).toEqual([EXPORT_WORKER_FUNCTION_ID]);
    expect(resources[EXPORT_WORKER_FUNCTION_ID]?.Properties).toMatchObject({ Timeout: 300 });
    expect([...referencedIds(environmentOf(EXPORT_WORKER_FUNCTION_ID).EXPORT_BUCKET)]).toEqual([importBucketId()]);
    expect(environmentOf(EXPORT_WORKER_FUNCTION_ID).EXPORT_QUEUE_URL).toBeUndefined();
  });

  it('names the queue to POST /exports alone and the bucket to GET /exports/{id} alone among the routes, each with its one grant', () => {
    const named = (variable: string) => routes.map((route) => routeFunction(route)).filter((id) => environmentOf(id)[variable] !== undefined);
    expect(named('EXPORT_QUEUE_URL')).toEqual([routeFunctionId('createExport')]);
    expect(named('EXPORT_BUCKET')).toEqual([routeFunctionId('getExport')]);
    const [queueId] = queueNamed('ExportsQueue');
    const senders = serviceFunctions()
      .map(([id]) => id)
      .filter((id) =>
        statementsOfFunction(id).some((statement) => asList(statement.Action).includes('sqs:SendMessage') && referencedIds(statement.Resource).has(queueId)),
      );
    expect(senders).toEqual([routeFunctionId('createExport')]);
    const workerActions = statementsOfFunction(EXPORT_WORKER_FUNCTION_ID).flatMap((statement) => asList(statement.Action));
    expect(workerActions).toEqual(expect.arrayContaining(['s3:PutObject', 's3:AbortMultipartUpload', 'sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(workerActions).not.toContain('s3:GetObject');
    expect(workerActions).not.toContain('sqs:SendMessage');
  });

  it('alarms on the dead-letter queue and counts the worker in the errors alarms', () => {
    const [deadId] = queueNamed('ExportsDeadLetterQueue');
    const alarms = ofType('AWS::CloudWatch::Alarm').filter(([id]) => id.startsWith('ExportsDeadLetterAlarm'));
    expect(alarms).toHaveLength(1);
    expect([...referencedIds(alarms[0]?.[1].Properties.Dimensions)]).toEqual([deadId]);
    const errorsAlarm = ofType('AWS::CloudWatch::Alarm').filter(
      ([id, alarm]) => id.startsWith('ObservabilityFunctionErrors') && referencedIds(alarm.Properties.Metrics).has(EXPORT_WORKER_FUNCTION_ID),
    );
    expect(errorsAlarm).toHaveLength(1);
  });
});
