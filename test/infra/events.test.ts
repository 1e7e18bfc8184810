import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { BatchGetCommand, DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, APIGatewayRequestAuthorizerEvent, Context, ScheduledEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fromRoot } from '../../infra/paths';
import { functionEnvironment } from '../../infra/stack';
import { resolveStage } from '../../infra/stages';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { resetConfig } from '../../lib/config';
import { authorizer as authorizerManifest, jobs, routeList } from '../../lib/routes';
import { lambdaContext } from '../../tools/events';

/**
 * The sample events under events/ (the `sam local invoke -e` inputs of docs/deploy.md) are
 * accepted by their handlers: every function has one, and each runs in process on it with
 * the dev stage's configuration and a DynamoDB that holds nothing. A route may answer 4xx
 * for data that does not exist (404; 401 for the placeholder refresh token or an unknown
 * login; 400 for the unknown reset token and the webhook receiver's unresolvable host), never a parsing refusal (a 400 about the
 * request's shape, 413, 415, a CSRF 403) and never 5xx.
 */

const TABLE = 'sample-events-table';
const stage = resolveStage(() => undefined);

// The configuration the stack gives the functions in dev, with a signing key and a cursor key
// of the test's own instead of the Secrets Manager secrets (sam local invoke would reach the
// real ones).
const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
const kid = 'sample-events';
Object.assign(process.env, {
  TABLE_NAME: TABLE,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  JWT_PUBLIC_KEYS: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256' }] }),
  JWT_SIGNING_KEY: JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'ES256' }),
  CURSOR_SECRET: 'sample-events-cursor-key-of-32-characters',
  // What the stack gives POST /imports (infra/constructs/imports.ts): the bucket it presigns uploads to, offline.
  IMPORT_BUCKET: 'sample-events-imports',
  // What it gives POST /exports and GET /exports/{id} (infra/constructs/exports.ts): the queue it sends jobs to (mocked below) and the bucket it presigns downloads of, offline.
  EXPORT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/123456789012/sample-events-exports',
  EXPORT_BUCKET: 'sample-events-imports',
  ...functionEnvironment(stage, {
    origin: 'https://d111111abcdef8.cloudfront.net',
    appUrl: 'https://d111111abcdef8.cloudfront.net/console',
    edgeSecret: 'sample-events-edge-secret',
  }),
  POWERTOOLS_LOG_LEVEL: 'SILENT',
  // No EMF lines on the test output (test/handlers/metrics.test.ts checks what they hold).
  POWERTOOLS_METRICS_DISABLED: 'true',
});
delete process.env.DYNAMODB_ENDPOINT;
delete process.env.JWT_SIGNING_KEY_SECRET_ID;
delete process.env.CURSOR_SECRET_ID;

const ddb = mockClient(DynamoDBDocumentClient);
const ses = mockClient(SESClient);
const sqs = mockClient(SQSClient);

beforeAll(() => resetConfig());
afterAll(() => {
  ddb.restore();
  ses.restore();
  sqs.restore();
});

beforeEach(() => {
  // An empty table: no item, no query result, every write accepted.
  ddb.reset();
  ddb.onAnyCommand().resolves({});
  ddb.on(QueryCommand).resolves({ Items: [], Count: 0 });
  ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: [] }, UnprocessedKeys: {} });
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'sample' });
  sqs.reset();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'sample' });
});

/** The sample event file of a handler: `functions/auth/login.ts` -> `events/login.json`. */
const eventFileOf = (handler: string): string => path.join('events', `${path.basename(handler, '.ts')}.json`);

function readEvent<T>(handler: string): T {
  return JSON.parse(readFileSync(fromRoot(eventFileOf(handler)), 'utf8')) as T;
}

async function handlerOf<E, R>(handler: string): Promise<(event: E, context: Context) => Promise<R>> {
  const module = (await import(fromRoot(handler))) as { handler: (event: E, context: Context) => Promise<R> };
  return module.handler;
}

const routes = routeList();
const everyHandler = [authorizerManifest.handler, ...routes.map((route) => route.handler), ...Object.values(jobs).map((job) => job.handler)];

describe('sample events', () => {
  it('has exactly one sample event per function, named after its handler file', () => {
    const expected = everyHandler.map((handler) => path.basename(eventFileOf(handler)));
    expect(new Set(expected).size).toBe(everyHandler.length);
    for (const handler of everyHandler) expect(existsSync(fromRoot(eventFileOf(handler))), eventFileOf(handler)).toBe(true);
    // Besides the events, only the --env-vars example for sam local invoke.
    const present = readdirSync(fromRoot('events')).filter((file) => file.endsWith('.json') && file !== 'sam-env.example.json');
    expect(present.sort()).toEqual(expected.sort());
  });

  it('gives each route the REST proxy event of its own method and resource, with the authorizer context on protected routes', () => {
    const principal: Principal = {
      kind: 'user',
      tenantId: 't',
      userId: 'u',
      sessionId: 's',
      jti: 'j',
      role: 'MEMBER',
      platformAdmin: false,
      credentialVersion: 0,
      name: 'n',
      email: 'e',
      tokenExpiresAt: 0,
      sessionsValidFrom: null,
      mfaEnrolmentRequired: false,
    };
    const contextKeys = Object.keys(toAuthorizerContext(principal)).sort();
    for (const route of routes) {
      const event = readEvent<APIGatewayProxyEvent>(route.handler);
      expect({ method: event.httpMethod, resource: event.resource, resourcePath: event.requestContext.resourcePath }, route.id).toEqual({
        method: route.method,
        resource: route.path,
        resourcePath: route.path,
      });
      expect(event.requestContext.stage, route.id).toBe(stage.name);
      const authorizer = event.requestContext.authorizer as Record<string, unknown> | undefined;
      if (route.auth === 'protected') {
        expect(
          Object.keys(authorizer ?? {})
            .filter((key) => contextKeys.includes(key))
            .sort(),
          route.id,
        ).toEqual(contextKeys);
      } else {
        expect(authorizer, route.id).toBeUndefined();
      }
    }
  });

  it.each(routes.map((route) => [route.id, route] as const))('%s: the handler accepts its sample event', async (_id, route) => {
    const handler = await handlerOf<APIGatewayProxyEvent, APIGatewayProxyResult>(route.handler);
    const response = await handler(readEvent(route.handler), lambdaContext());

    expect(response.statusCode, response.body).toBeLessThan(500);
    // A parsing refusal would mean the sample is not what API Gateway sends for this route.
    expect([413, 415], response.body).not.toContain(response.statusCode);
    if (response.statusCode === 400) {
      // Only an answer about the data: the sample's reset token exists in no table, and the
      // sample webhook receiver's host resolves to no address (the SSRF guard resolves it).
      const problem = JSON.parse(response.body) as { errors?: { field: string; message: string }[] };
      expect([
        { route: 'resetPassword', errors: [{ field: 'token', message: 'is invalid, expired or already used' }] },
        { route: 'createWebhookEndpoint', errors: [{ field: 'url', message: 'has a host name that does not resolve (erp.example.com)' }] },
      ]).toContainEqual({ route: route.id, errors: problem.errors });
    }
    if (response.statusCode === 403) expect(response.body).not.toMatch(/Cross-(origin|site)/);
    if (response.body !== '') {
      const contentType = response.headers?.['Content-Type'];
      expect(contentType).toMatch(/^application\/(problem\+)?json/);
      expect(() => JSON.parse(response.body) as unknown).not.toThrow();
    }
    // The CORS headers for the configured origin the sample calls from.
    expect(response.headers?.['Access-Control-Allow-Origin']).toBe('http://localhost:5173');
  });

  it('authorizer: denies the placeholder access token of its sample event with exactly "Unauthorized" (API Gateway 401)', async () => {
    const event = readEvent<APIGatewayRequestAuthorizerEvent>(authorizerManifest.handler);
    expect(event.type).toBe('REQUEST');
    expect(event.headers?.Cookie).toMatch(/^accessToken=/);
    const handler = await handlerOf<APIGatewayRequestAuthorizerEvent, unknown>(authorizerManifest.handler);
    await expect(handler(event, lambdaContext())).rejects.toThrow(/^Unauthorized$/);
  });

  it('sales-rollup: runs the roll-up for the day before its scheduled event', async () => {
    const event = readEvent<ScheduledEvent>(jobs.salesRollup.handler);
    expect(event['detail-type']).toBe('Scheduled Event');
    const handler = await handlerOf<ScheduledEvent, unknown>(jobs.salesRollup.handler);
    // 03:15 UTC on the 22nd is 00:15 on the 22nd in São Paulo: the 21st is complete.
    await expect(handler(event, lambdaContext())).resolves.toEqual({ today: '2026-11-22', counters: 0, products: 0, coverage: { tenants: 0, products: 0 } });
  });
});
