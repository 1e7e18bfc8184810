import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';

/**
 * Builders for the events API Gateway (REST, payload 1.0) hands to the functions: a proxy
 * event for an HTTP handler and a REQUEST event for the authorizer. Headers are given once;
 * the builders fill `multiValueHeaders` the way API Gateway does.
 */

export const ALLOWED_ORIGIN = 'https://app.example.com';
const ACCOUNT = '123456789012';
const API_ID = 'abc123defg';
const STAGE = 'test';

/**
 * `requestContext.identity` as API Gateway fills it for an unauthenticated (IAM-less) caller:
 * every field null but the address and the user agent. Shared by these builders and the
 * local emulator (local/gateway.ts).
 */
export function callerIdentity(sourceIp: string, userAgent: string | null): APIGatewayProxyEvent['requestContext']['identity'] {
  return {
    accessKey: null,
    accountId: null,
    apiKey: null,
    apiKeyId: null,
    caller: null,
    clientCert: null,
    cognitoAuthenticationProvider: null,
    cognitoAuthenticationType: null,
    cognitoIdentityId: null,
    cognitoIdentityPoolId: null,
    principalOrgId: null,
    sourceIp,
    user: null,
    userAgent,
    userArn: null,
  };
}

export interface ProxyEventInput {
  method?: string;
  /** Resource path, e.g. `/tenants/{id}`. */
  resource?: string;
  /** Actual path, e.g. `/tenants/7d0...`; defaults to the resource. */
  path?: string;
  headers?: Record<string, string>;
  /** Raw body; an object is serialized as JSON. `null` means no body. */
  body?: string | object | null;
  isBase64Encoded?: boolean;
  pathParameters?: Record<string, string> | null;
  query?: Record<string, string | string[]> | null;
  /** `requestContext.authorizer` (the context a REQUEST authorizer returned). */
  authorizer?: Record<string, string> | null;
  requestId?: string;
  sourceIp?: string;
}

function multiValued(headers: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]]));
}

function queryParameters(query: Record<string, string | string[]> | null | undefined) {
  if (!query) return { single: null, multi: null };
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    multi[key] = values;
    // API Gateway keeps the last value in the single-valued map.
    single[key] = values[values.length - 1] ?? '';
  }
  return { single, multi };
}

/** A proxy event as API Gateway REST sends it to a Lambda proxy integration. */
export function proxyEvent(input: ProxyEventInput = {}): APIGatewayProxyEvent {
  const method = input.method ?? 'GET';
  const resource = input.resource ?? '/';
  const path = input.path ?? resource;
  const headers = input.headers ?? {};
  const body = input.body === undefined || input.body === null ? null : typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
  const { single, multi } = queryParameters(input.query);
  const requestId = input.requestId ?? 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef';
  return {
    resource,
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: multiValued(headers),
    queryStringParameters: single,
    multiValueQueryStringParameters: multi,
    pathParameters: input.pathParameters ?? null,
    stageVariables: null,
    body,
    isBase64Encoded: input.isBase64Encoded ?? false,
    requestContext: {
      accountId: ACCOUNT,
      apiId: API_ID,
      authorizer: input.authorizer ?? null,
      protocol: 'HTTP/1.1',
      httpMethod: method,
      identity: callerIdentity(input.sourceIp ?? '203.0.113.10', headers['User-Agent'] ?? null),
      path: `/${STAGE}${path}`,
      stage: STAGE,
      requestId,
      requestTimeEpoch: 1_763_767_200_000,
      resourceId: 'res123',
      resourcePath: resource,
    },
  };
}

/** A JSON POST from the allowed browser origin, the usual shape of a state-changing call. */
export function jsonPost(resource: string, body: string | object | null, extra: Partial<ProxyEventInput> = {}): APIGatewayProxyEvent {
  return proxyEvent({
    method: 'POST',
    resource,
    body,
    ...extra,
    headers: { 'Content-Type': 'application/json', Origin: ALLOWED_ORIGIN, 'User-Agent': 'vitest', ...extra.headers },
  });
}

export interface AuthorizerEventInput {
  cookie?: string;
  method?: string;
  resource?: string;
  requestId?: string;
}

/** A REQUEST authorizer event, with the session cookie (the API key path builds its own headers). */
export function authorizerEvent(input: AuthorizerEventInput = {}): APIGatewayRequestAuthorizerEvent {
  const method = input.method ?? 'GET';
  const resource = input.resource ?? '/auth/me';
  const headers: Record<string, string> = { Origin: ALLOWED_ORIGIN, ...(input.cookie === undefined ? {} : { Cookie: input.cookie }) };
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:us-east-1:${ACCOUNT}:${API_ID}/${STAGE}/${method}${resource}`,
    resource,
    path: resource,
    httpMethod: method,
    headers,
    multiValueHeaders: multiValued(headers),
    pathParameters: null,
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    stageVariables: null,
    requestContext: { ...proxyEvent({ method, resource, requestId: input.requestId ?? 'authz-request-1' }).requestContext, authorizer: undefined },
  };
}

/** The Lambda context; the handlers only read `awsRequestId` as a fallback. */
export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'test-function',
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:test-function`,
    memoryLimitInMB: '1024',
    awsRequestId: 'lambda-request-id',
    logGroupName: '/aws/lambda/test-function',
    logStreamName: '2026/11/21/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
