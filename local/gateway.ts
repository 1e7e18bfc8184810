import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayEventRequestContextWithAuthorizer,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { GATEWAY_PROBLEM_CONTENT_TYPE, GATEWAY_STATIC_HEADERS, gatewayCorsOrigin, gatewayProblem, type GatewayResponseType } from '../lib/http/gateway-responses';
import type { Route } from '../lib/routes';

/**
 * A local API Gateway REST API (Lambda proxy integration, payload 1.0) generated from the
 * route manifest. It behaves like the deployed API where the functions can tell:
 *
 * - the proxy event: headers as sent (last value wins) and multiValueHeaders, query and
 *   multi-value query parameters, pathParameters, requestContext with requestId,
 *   identity.sourceIp and the authorizer context (values as strings);
 * - the REQUEST authorizer on protected routes, with identity source `Cookie`: no Cookie
 *   header, 401 without invoking it; thrown `Unauthorized`, 401; a Deny policy, 403; any
 *   other failure, AUTHORIZER_FAILURE;
 * - CORS preflight for the configured origins; the proxy result's `multiValueHeaders`
 *   (several Set-Cookie) written as several headers;
 * - gateway errors (unknown route, denied, function failure) as problem documents with
 *   CORS headers, from the same table the CDK stack configures.
 */

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (event: APIGatewayRequestAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;

export interface GatewayOptions {
  routes: readonly (Route & { id: string })[];
  loadHandler: (route: Route) => Promise<ProxyHandler>;
  loadAuthorizer: () => Promise<AuthorizerHandler>;
  allowedOrigins: readonly string[];
  /** One line per request (method, path, status, milliseconds). */
  log?: (line: string) => void;
}

const STAGE = 'local';
const ACCOUNT = '123456789012';
const API_ID = 'local';
/** API Gateway's payload limit (REST API): 10 MB. */
const MAX_PAYLOAD = 10 * 1024 * 1024;
const PREFLIGHT_HEADERS = 'Content-Type,Authorization,X-Requested-With';

interface CompiledRoute {
  route: Route & { id: string };
  pattern: RegExp;
  params: string[];
}

function compile(route: Route & { id: string }): CompiledRoute {
  const params: string[] = [];
  const source = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), params };
}

/** `21/Nov/2026:23:15:00 +0000`, API Gateway's requestTime format. */
function requestTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_PAYLOAD) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolveBody(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Headers as API Gateway passes them: original casing, last value in `headers`, all in `multiValueHeaders`. */
function eventHeaders(request: IncomingMessage): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    const value = raw[index + 1] as string;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

function queryParameters(url: URL): { single: Record<string, string> | null; multi: Record<string, string[]> | null } {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) {
    single[key] = value;
    (multi[key] ??= []).push(value);
  }
  return Object.keys(single).length ? { single, multi } : { single: null, multi: null };
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function lambdaContext(functionName: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:${ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Does an IAM resource pattern (with `*` and `?`) match the method ARN? */
function resourceMatches(pattern: string, arn: string): boolean {
  const source = pattern.replace(/[.+^$()|[\]\\{}]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(arn);
}

function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  let allowed = false;
  for (const statement of result.policyDocument?.Statement ?? []) {
    const resources = 'Resource' in statement ? ([] as string[]).concat(statement.Resource as string | string[]) : [];
    if (!resources.some((resource) => resourceMatches(resource, methodArn))) continue;
    if (statement.Effect === 'Deny') return false;
    if (statement.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

/** API Gateway passes authorizer context values to the function as strings. */
function stringifyContext(context: APIGatewayAuthorizerResult['context']): Record<string, string> | 'invalid' {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(context ?? {})) {
    if (value !== null && typeof value === 'object') return 'invalid';
    result[key] = String(value);
  }
  return result;
}

export function createGateway(options: GatewayOptions): (request: IncomingMessage, response: ServerResponse) => void {
  const compiled = options.routes.map(compile);
  const log = options.log ?? (() => undefined);

  const corsHeaders = (origin: string | undefined): Record<string, string> => {
    if (!origin || !options.allowedOrigins.includes(origin)) return { Vary: 'Origin' };
    return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
  };

  const send = (response: ServerResponse, status: number, headers: Record<string, string | string[]>, body: string) => {
    response.statusCode = status;
    for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
    response.end(body);
  };

  /** Gateway responses grant CORS to the first allowed origin only, as the stack configures them. */
  const gatewayCors = { 'Access-Control-Allow-Origin': gatewayCorsOrigin(options.allowedOrigins), 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' };
  const sendGatewayError = (response: ServerResponse, type: GatewayResponseType, requestId: string) => {
    const { problem, headers } = gatewayProblem(type, requestId);
    send(
      response,
      problem.status,
      { 'Content-Type': GATEWAY_PROBLEM_CONTENT_TYPE, ...GATEWAY_STATIC_HEADERS, ...headers, ...gatewayCors, 'x-amzn-RequestId': requestId },
      JSON.stringify(problem),
    );
    return problem.status;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<number> => {
    const requestId = randomUUID();
    const now = new Date();
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = (request.method ?? 'GET').toUpperCase();
    const { headers, multiValueHeaders } = eventHeaders(request);
    const origin = headerValue(headers, 'origin');

    const onPath = compiled
      .map((candidate) => ({ candidate, match: candidate.pattern.exec(url.pathname) }))
      .filter((entry): entry is { candidate: CompiledRoute; match: RegExpExecArray } => entry.match !== null);

    if (method === 'OPTIONS' && onPath.length > 0) {
      const methods = [...new Set(onPath.map((entry) => entry.candidate.route.method)), 'OPTIONS'].join(',');
      const cors = corsHeaders(origin);
      const allowed = 'Access-Control-Allow-Origin' in cors;
      send(
        response,
        204,
        allowed
          ? { ...cors, 'Access-Control-Allow-Methods': methods, 'Access-Control-Allow-Headers': PREFLIGHT_HEADERS, 'Access-Control-Max-Age': '600' }
          : cors,
        '',
      );
      return 204;
    }

    const found = onPath.find((entry) => entry.candidate.route.method === method);
    if (!found) return sendGatewayError(response, 'MISSING_AUTHENTICATION_TOKEN', requestId);
    const { route, params } = found.candidate;

    const raw = await readBody(request);
    if (raw === 'too-large') return sendGatewayError(response, 'REQUEST_TOO_LARGE', requestId);

    const pathParameters: Record<string, string> = {};
    params.forEach((name, index) => {
      pathParameters[name] = decodeURIComponent(found.match[index + 1] as string);
    });
    const query = queryParameters(url);
    const sourceIp = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    const requestContext: APIGatewayEventRequestContextWithAuthorizer<Record<string, string> | undefined> = {
      accountId: ACCOUNT,
      apiId: API_ID,
      authorizer: undefined,
      domainName: headerValue(headers, 'host') ?? 'localhost',
      domainPrefix: 'localhost',
      extendedRequestId: requestId,
      httpMethod: method,
      identity: {
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
        userAgent: headerValue(headers, 'user-agent') ?? null,
        userArn: null,
      },
      path: `/${STAGE}${url.pathname}`,
      protocol: `HTTP/${request.httpVersion}`,
      requestId,
      requestTime: requestTime(now),
      requestTimeEpoch: now.getTime(),
      resourceId: route.id,
      resourcePath: route.path,
      stage: STAGE,
    };
    const methodArn = `arn:aws:execute-api:us-east-1:${ACCOUNT}:${API_ID}/${STAGE}/${method}${url.pathname}`;

    if (route.auth === 'protected') {
      // Identity source `method.request.header.Cookie`: absent or empty means 401 at once.
      if (!headerValue(headers, 'cookie')) return sendGatewayError(response, 'UNAUTHORIZED', requestId);
      const authorizerEvent: APIGatewayRequestAuthorizerEvent = {
        type: 'REQUEST',
        methodArn,
        resource: route.path,
        path: url.pathname,
        httpMethod: method,
        headers,
        multiValueHeaders,
        pathParameters,
        queryStringParameters: query.single,
        multiValueQueryStringParameters: query.multi,
        stageVariables: null,
        requestContext: requestContext as APIGatewayRequestAuthorizerEvent['requestContext'],
      };
      let result: APIGatewayAuthorizerResult;
      try {
        result = JSON.parse(JSON.stringify(await (await options.loadAuthorizer())(structuredClone(authorizerEvent)))) as APIGatewayAuthorizerResult;
      } catch (error) {
        if (error instanceof Error && error.message === 'Unauthorized') return sendGatewayError(response, 'UNAUTHORIZED', requestId);
        return sendGatewayError(response, 'AUTHORIZER_FAILURE', requestId);
      }
      if (!policyAllows(result, methodArn)) return sendGatewayError(response, 'ACCESS_DENIED', requestId);
      const context = stringifyContext(result.context);
      if (context === 'invalid') return sendGatewayError(response, 'AUTHORIZER_FAILURE', requestId);
      requestContext.authorizer = { ...context, principalId: result.principalId };
    }

    const event: APIGatewayProxyEvent = {
      resource: route.path,
      path: url.pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: query.single,
      multiValueQueryStringParameters: query.multi,
      pathParameters: params.length ? pathParameters : null,
      stageVariables: null,
      requestContext,
      body: raw.length > 0 ? raw.toString('utf8') : null,
      isBase64Encoded: false,
    };

    let result: APIGatewayProxyResult;
    try {
      // Through JSON, as the Lambda service returns it (undefined values vanish).
      const returned = await (await options.loadHandler(route))(structuredClone(event), lambdaContext(route.id, requestId));
      result = JSON.parse(JSON.stringify(returned ?? null)) as APIGatewayProxyResult;
    } catch (error) {
      console.error(`[gateway] ${route.id} failed:`, error);
      return sendGatewayError(response, 'INTEGRATION_FAILURE', requestId);
    }
    if (!result || typeof result.statusCode !== 'number') return sendGatewayError(response, 'INTEGRATION_FAILURE', requestId);

    // multiValueHeaders and headers are merged, as API Gateway does for a proxy result.
    const out: Record<string, string | string[]> = { 'x-amzn-RequestId': requestId };
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) out[name] = values.map(String);
    for (const [name, value] of Object.entries(result.headers ?? {})) {
      const existing = out[name];
      out[name] = Array.isArray(existing) ? [...existing, String(value)] : String(value);
    }
    const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    response.statusCode = result.statusCode;
    for (const [name, value] of Object.entries(out)) response.setHeader(name, value);
    response.end(body);
    return result.statusCode;
  };

  return (request, response) => {
    const started = process.hrtime.bigint();
    handle(request, response)
      .then((status) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log(`${request.method} ${request.url} ${status} ${ms.toFixed(1)}ms`);
      })
      .catch((error: unknown) => {
        console.error('[gateway] unexpected failure', error);
        if (!response.headersSent) sendGatewayError(response, 'DEFAULT_5XX', randomUUID());
      });
  };
}
