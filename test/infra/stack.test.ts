import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorizer as authorizerManifest, routeList } from '../../lib/routes';
import { fromRoot } from '../../infra/paths';
import { BackofficeStack } from '../../infra/stack';
import { resolveStage } from '../../infra/stages';

/**
 * Properties of the synthesized dev stack, checked against the route manifest. Synthesis
 * bundles every function with esbuild, so the template is built once for the whole file.
 */

type Json = Record<string, unknown>;
interface Resource {
  Type: string;
  Properties: Json;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

const SYNTH_TIMEOUT_MS = 120_000;

/** DynamoDB actions that change data; a read-only function must have none of them. */
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

beforeAll(() => {
  // The same feature flags as `cdk synth`, which reads them from cdk.json.
  const { context } = JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')) as { context: Json };
  const app = new App({ context: { ...context, stage: 'dev' } });
  const stage = resolveStage((key) => app.node.tryGetContext(key) as unknown);
  const stack = new BackofficeStack(app, 'Backoffice-dev', { stage });
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources as Record<string, Resource>;
}, SYNTH_TIMEOUT_MS);

// ---- template navigation -------------------------------------------------------------------

function ofType(type: string): [string, Resource][] {
  return Object.entries(resources).filter(([, resource]) => resource.Type === type);
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
function routeFunction(route: { method: string; path: string }): string {
  return functionIn(methodOf(route).Integration);
}

function authorizerFunction(): string {
  const [, authorizer] = only(ofType('AWS::ApiGateway::Authorizer'), 'authorizers');
  return functionIn(authorizer.Properties.AuthorizerUri);
}

interface Statement {
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

function actionsOfFunction(functionId: string): string[] {
  return statementsOfFunction(functionId).flatMap((statement) => asList(statement.Action));
}

/** The table-writing statements of a function, with their conditions. */
function writeStatementsOf(functionId: string): Statement[] {
  return statementsOfFunction(functionId).filter((statement) => asList(statement.Action).some((action) => DYNAMODB_WRITE_ACTIONS.includes(action)));
}

function environmentOf(functionId: string): Record<string, unknown> {
  return (resources[functionId]?.Properties.Environment as { Variables: Record<string, unknown> }).Variables;
}

const routes = routeList();
const protectedRoutes = routes.filter((route) => route.auth === 'protected');
const publicRoutes = routes.filter((route) => route.auth === 'public');

// ---- tests -------------------------------------------------------------------------------

describe('functions', () => {
  it('creates one function per manifest route plus the authorizer, each its own', () => {
    template.resourceCountIs('AWS::Lambda::Function', routes.length + 1);
    const behindRoutes = new Set(routes.map(routeFunction));
    expect(behindRoutes.size).toBe(routes.length);
    expect(behindRoutes.has(authorizerFunction())).toBe(false);
  });

  it('runs every function on Node.js 22, arm64, as an ESM bundle with a log group of its own', () => {
    const functions = ofType('AWS::Lambda::Function');
    for (const [, fn] of functions) {
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: expect.any(String) as unknown } },
      });
      expect(fn.Properties.Timeout).toBeLessThan(29);
    }
    const logGroups = new Set(functions.map(([, fn]) => (fn.Properties.LoggingConfig as { LogGroup: { Ref: string } }).LogGroup.Ref));
    expect(logGroups.size).toBe(functions.length);
    for (const id of logGroups) expect(resources[id]?.Properties.RetentionInDays).toEqual(expect.any(Number));
  });

  it('gives 1024 MB to the bcrypt routes and 256 MB to the others', () => {
    for (const route of routes) {
      const memory = resources[routeFunction(route)]?.Properties.MemorySize;
      expect(memory, route.id).toBe(route.cpu === 'bcrypt' ? 1024 : 256);
    }
    expect(resources[authorizerFunction()]?.Properties.MemorySize).toBe(256);
  });

  it('sets the whole configuration on every function, with the stage path prefix', () => {
    const tableId = only(ofType('AWS::DynamoDB::GlobalTable'), 'tables')[0];
    for (const [id] of ofType('AWS::Lambda::Function')) {
      expect(environmentOf(id), id).toMatchObject({
        TABLE_NAME: { Ref: tableId },
        JWT_ISSUER: expect.any(String) as unknown,
        JWT_AUDIENCE: expect.any(String) as unknown,
        JWT_PUBLIC_KEYS: '{"keys":[]}',
        ACCESS_TOKEN_TTL_SECONDS: '900',
        REFRESH_TOKEN_TTL_SECONDS: '43200',
        REMEMBER_ME_TTL_SECONDS: '2592000',
        ALLOWED_ORIGINS: expect.stringMatching(/^https?:\/\/[^*]+$/) as unknown,
        COOKIE_SAME_SITE: 'Strict',
        PATH_PREFIX: '/dev',
        BCRYPT_COST: '10',
        BUSINESS_TIME_ZONE: 'America/Sao_Paulo',
        APP_URL: expect.stringMatching(/^https:\/\//) as unknown,
        MAIL_FROM: expect.stringMatching(/@/) as unknown,
        MAIL_TRANSPORT: 'ses',
      });
    }
  });
});

describe('API routes and authorizer', () => {
  it('has a REQUEST authorizer on the Cookie header with caching off', () => {
    template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
      Type: 'REQUEST',
      IdentitySource: `method.request.header.${authorizerManifest.identitySource}`,
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

  it('answers the preflight for the configured origins with credentials', () => {
    const preflight = methodsByRoute().get('OPTIONS /auth/login') as { Integration: { IntegrationResponses: Json[] } } | undefined;
    const response = preflight?.Integration.IntegrationResponses[0] as { ResponseParameters: Json; ResponseTemplates: Json };
    expect(response.ResponseParameters).toMatchObject({
      'method.response.header.Access-Control-Allow-Credentials': "'true'",
      'method.response.header.Access-Control-Allow-Origin': "'http://localhost:5173'",
    });
    expect(JSON.stringify(response.ResponseTemplates)).toContain('https://app.dev.example.com');
    expect(JSON.stringify(response)).not.toContain("'*'");
  });

  it('throttles every method and writes JSON access logs', () => {
    template.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'dev',
      MethodSettings: Match.arrayWith([
        Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() }),
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
      'gatewayresponse.header.Access-Control-Allow-Origin': 'method.request.header.origin',
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
  it('grants no wildcard action', () => {
    const roles = ofType('AWS::IAM::Role').map(([id]) => id);
    for (const roleId of roles) {
      for (const statement of statementsOfRole(roleId)) {
        for (const action of asList(statement.Action)) {
          expect(action, roleId).not.toBe('*');
          expect(action, roleId).not.toMatch(/^[a-z0-9-]+:\*$/);
        }
      }
    }
  });

  it('gives read-only routes no table write beyond their rate-limit counters', () => {
    for (const route of routes.filter((candidate) => candidate.table === 'read')) {
      const functionId = routeFunction(route);
      expect(actionsOfFunction(functionId), route.id).toContain('dynamodb:Query');
      const writes = writeStatementsOf(functionId);
      if (!route.rateLimit) {
        expect(writes, route.id).toEqual([]);
        continue;
      }
      // Only UpdateItem, only on items whose partition key starts with RATE#.
      expect(writes, route.id).toEqual([
        expect.objectContaining({ Action: 'dynamodb:UpdateItem', Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } } }),
      ]);
    }
  });

  it('lets the authorizer write nothing but lastActiveAt', () => {
    const functionId = authorizerFunction();
    expect(actionsOfFunction(functionId)).toContain('dynamodb:BatchGetItem');
    expect(writeStatementsOf(functionId)).toEqual([
      expect.objectContaining({
        Action: 'dynamodb:UpdateItem',
        Condition: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastActiveAt'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
        },
      }),
    ]);
  });

  it('lets every rate-limited route count, whatever its table access', () => {
    for (const route of routes.filter((candidate) => candidate.rateLimit)) {
      expect(writeStatementsOf(routeFunction(route)), route.id).toEqual(
        expect.arrayContaining([expect.objectContaining({ Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } } })]),
      );
    }
  });

  it('gives read-write routes the write actions', () => {
    for (const route of routes.filter((candidate) => candidate.table === 'read-write')) {
      expect(actionsOfFunction(routeFunction(route)), route.id).toEqual(expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem']));
    }
  });

  it('lets only the token-signing routes read the signing key', () => {
    expect(routes.filter((route) => route.signsTokens).map((route) => route.id).sort()).toEqual(['login', 'refresh', 'register']);
    const [secretId] = only(ofType('AWS::SecretsManager::Secret'), 'secrets');
    for (const route of routes) {
      const functionId = routeFunction(route);
      const signs = route.signsTokens === true;
      expect(actionsOfFunction(functionId).includes('secretsmanager:GetSecretValue'), route.id).toBe(signs);
      expect(environmentOf(functionId).JWT_SIGNING_KEY_SECRET_ID, route.id).toEqual(signs ? { Ref: secretId } : undefined);
    }
    expect(actionsOfFunction(authorizerFunction())).not.toContain('secretsmanager:GetSecretValue');
  });

  it('lets exactly the routes that send mail call SES', () => {
    for (const route of routes) {
      const sends = actionsOfFunction(routeFunction(route)).some((action) => action.startsWith('ses:'));
      expect(sends, route.id).toBe(route.sendsMail === true);
    }
  });
});

describe('outputs', () => {
  it('exports the API URL and the table name', () => {
    template.hasOutput('ApiUrl', { Value: Match.anyValue() });
    template.hasOutput('TableName', { Value: { Ref: only(ofType('AWS::DynamoDB::GlobalTable'), 'tables')[0] } });
  });
});
