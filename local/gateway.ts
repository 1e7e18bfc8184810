import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayEventRequestContextWithAuthorizer,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import {
  GATEWAY_PROBLEM_CONTENT_TYPE,
  GATEWAY_STATIC_HEADERS,
  gatewayCorsOrigin,
  gatewayProblem,
  type FrontEndResponseType,
  type GatewayResponseType,
} from '../lib/http/gateway-responses';
import type { Route } from '../lib/routes';
import { callerIdentity } from '../tools/events';

/**
 * A local API Gateway REST API (Lambda proxy integration, payload 1.0) generated from the
 * route manifest. It behaves like the deployed API where the functions can tell:
 *
 * - the proxy event: headers as sent (last value wins) and multiValueHeaders, query and
 *   multi-value query parameters, pathParameters, requestContext with requestId,
 *   identity.sourceIp and the authorizer context (values as strings);
 * - the REQUEST authorizer on protected routes, without an identity source (it takes the
 *   cookie or an API key): thrown `Unauthorized`, 401; a Deny policy, 403; any other
 *   failure, AUTHORIZER_FAILURE;
 * - CORS preflight for the configured origins; the proxy result's `multiValueHeaders`
 *   (several Set-Cookie) written as several headers;
 * - gateway errors (unknown route, denied, function failure) as problem documents with
 *   CORS headers, from the same table the CDK stack configures;
 * - API Gateway's limits on the request itself (REST API quotas): a URL over 10240
 *   characters, or over 1600 bytes of method ARN behind the authorizer, is 414; a request
 *   line and headers over 10240 bytes together, 431; a malformed percent-encoding in the
 *   path, 400 (in the query it is kept as typed). These are problem documents too
 *   (lib/http/gateway-responses.ts, `frontEndResponses`), as is anything Node's HTTP parser
 *   refuses (`createGatewayServer`);
 * - client-chosen names (headers, query and path parameters) in maps without a prototype, so
 *   `constructor` or `__proto__` are names like any other;
 * - a body that is not valid UTF-8 passed base64-encoded with `isBase64Encoded: true`, as
 *   API Gateway passes binary payloads; any other body as the text it is.
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
/** API Gateway's limit on the URL of a regional REST API, in characters (the request target here). */
export const MAX_URL_LENGTH = 10_240;
/** API Gateway's limit on the request line and header values together, in bytes (names counted too). */
export const MAX_HEAD_BYTES = 10_240;
/** API Gateway's limit on the method ARN when a method has authorization: longer is a 414. */
export const MAX_METHOD_ARN_BYTES = 1_600;
/**
 * Node's own limit on a request head (16 KiB by default, answered with a bare 431), raised far
 * above API Gateway's so that the emulator sees such requests and answers them itself. Beyond
 * it, the `clientError` handler of `createGatewayServer` answers.
 */
export const NODE_MAX_HEADER_SIZE = 1024 * 1024;
/** Request targets are logged up to this length. */
const LOGGED_URL_LENGTH = 200;
const PREFLIGHT_HEADERS = 'Content-Type,Authorization,X-Requested-With,Idempotency-Key,If-Match';

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

/** An empty map for client-chosen names: no prototype, so no name is inherited or special. */
function dictionary<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** Headers as API Gateway passes them: original casing, last value in `headers`, all in `multiValueHeaders`. */
function eventHeaders(request: IncomingMessage): { headers: Record<string, string>; multiValueHeaders: Record<string, string[]> } {
  const headers = dictionary<string>();
  const multiValueHeaders = dictionary<string[]>();
  const raw = request.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    const value = raw[index + 1] as string;
    headers[name] = value;
    (multiValueHeaders[name] ??= []).push(value);
  }
  return { headers, multiValueHeaders };
}

interface Query {
  single: Record<string, string> | null;
  multi: Record<string, string[]> | null;
}

/** Percent-decoding that refuses a malformed escape or escapes that are not UTF-8. */
function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The query string as form fields (`+` is a space, URLSearchParams' reading). A malformed
 * escape is kept as typed (`%ZZ`, `100%`) and escapes that are not UTF-8 become U+FFFD: the
 * route's own validation decides about the value (400 where it reads that parameter), and a
 * parameter it does not read cannot fail the request.
 */
function queryParameters(search: string): Query {
  const single = dictionary<string>();
  const multi = dictionary<string[]>();
  let count = 0;
  for (const [name, value] of new URLSearchParams(search)) {
    single[name] = value;
    (multi[name] ??= []).push(value);
    count += 1;
  }
  return count > 0 ? { single, multi } : { single: null, multi: null };
}

/** The request line and the header names and values, in bytes (Node keeps both as latin1). */
function headBytes(request: IncomingMessage): number {
  let size = `${request.method ?? ''} ${request.url ?? ''} HTTP/${request.httpVersion}`.length;
  for (const item of request.rawHeaders) size += item.length;
  return size;
}

/** What the front end accepted: the target's path (still encoded) and its query parameters. */
export interface AcceptedRequest {
  url: URL;
  query: Query;
}

/**
 * API Gateway's checks on the request itself, before any route: the URL and head sizes, a
 * request target that parses, and a well-formed percent-encoding (UTF-8) in every path
 * segment. The docs server in front of the emulator defers to it (local/docs-server.ts).
 */
export function acceptRequest(request: IncomingMessage): AcceptedRequest | { refused: FrontEndResponseType } {
  const target = request.url ?? '/';
  if (target.length > MAX_URL_LENGTH) return { refused: 'URI_TOO_LONG' };
  if (headBytes(request) > MAX_HEAD_BYTES) return { refused: 'HEADERS_TOO_LARGE' };
  let url: URL;
  try {
    // Origin-form (`/path?query`) is read against a fixed origin, so `//host/x` stays a path.
    url = target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target);
  } catch {
    return { refused: 'MALFORMED_REQUEST' };
  }
  if (url.pathname.split('/').some((segment) => decode(segment) === undefined)) return { refused: 'MALFORMED_URI' };
  return { url, query: queryParameters(url.search) };
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as API Gateway passes it: text when it is UTF-8, otherwise base64 (a binary payload). */
export function eventBody(raw: Buffer): { body: string | null; isBase64Encoded: boolean } {
  if (raw.length === 0) return { body: null, isBase64Encoded: false };
  try {
    return { body: utf8.decode(raw), isBase64Encoded: false };
  } catch {
    return { body: raw.toString('base64'), isBase64Encoded: true };
  }
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
  const source = pattern
    .replace(/[.+^$()|[\]\\{}]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
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
  const result = dictionary<string>();
  for (const [key, value] of Object.entries(context ?? {})) {
    if (value !== null && typeof value === 'object') return 'invalid';
    result[key] = String(value);
  }
  return result;
}

/** A proxy result API Gateway can turn into a response; anything else is a failed integration. */
function isProxyResult(result: unknown): result is APIGatewayProxyResult {
  if (!result || typeof result !== 'object') return false;
  const { statusCode, body, headers, multiValueHeaders } = result as Record<string, unknown>;
  const isMap = (value: unknown) => value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value));
  return (
    typeof statusCode === 'number' &&
    Number.isInteger(statusCode) &&
    statusCode >= 100 &&
    statusCode <= 599 &&
    (body === undefined || body === null || typeof body === 'string') &&
    isMap(headers) &&
    isMap(multiValueHeaders) &&
    Object.values((multiValueHeaders ?? {}) as Record<string, unknown>).every(Array.isArray)
  );
}

/**
 * Status, headers and body of a gateway (or front-end) response, as the stack configures
 * them: gateway responses grant CORS to the first allowed origin only (none without one).
 */
export function gatewayErrorResponse(
  type: GatewayResponseType | FrontEndResponseType,
  requestId: string,
  allowedOrigins: readonly string[],
): { status: number; headers: Record<string, string>; body: string } {
  const { problem, headers } = gatewayProblem(type, requestId);
  const cors: Record<string, string> = allowedOrigins.length
    ? { 'Access-Control-Allow-Origin': gatewayCorsOrigin(allowedOrigins), 'Access-Control-Allow-Credentials': 'true' }
    : {};
  return {
    status: problem.status,
    headers: { 'Content-Type': GATEWAY_PROBLEM_CONTENT_TYPE, ...GATEWAY_STATIC_HEADERS, ...headers, ...cors, Vary: 'Origin', 'x-amzn-RequestId': requestId },
    body: JSON.stringify(problem),
  };
}

/** Node's parser errors, as the problem the emulator answers them with (any other: 400). */
const CLIENT_ERRORS: Record<string, FrontEndResponseType | GatewayResponseType> = {
  HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'REQUEST_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

export interface GatewayServerOptions {
  allowedOrigins: readonly string[];
}

/**
 * The HTTP server for the emulator (and whatever is in front of it, the docs server): Node's
 * head limit raised to `NODE_MAX_HEADER_SIZE` and no cap on the header count, so the
 * emulator itself sees oversized requests and answers 414/431; what Node's parser still
 * refuses (a head beyond that limit, malformed HTTP, a request timeout) is answered on the
 * socket with the same problem document and CORS headers, then the connection is closed.
 * Beyond Node's limit the parser cannot tell the URL from the headers: that is always a 431.
 */
export function createGatewayServer(listener: RequestListener, options: GatewayServerOptions): Server {
  // Throws at once without an allowed origin, as the stack does.
  gatewayCorsOrigin(options.allowedOrigins);
  const server = createServer({ maxHeaderSize: NODE_MAX_HEADER_SIZE }, listener);
  // 0: no limit. Node's default (2000) drops the headers after it silently.
  server.maxHeadersCount = 0;
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => {
    // The parser may report every later chunk of the same connection again: answer once.
    if (answered.has(socket)) return;
    answered.add(socket);
    // As Node does: never write into a response already under way on this connection.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const type = CLIENT_ERRORS[error.code ?? ''] ?? 'MALFORMED_REQUEST';
    const { status, headers, body } = gatewayErrorResponse(type, randomUUID(), options.allowedOrigins);
    const lines = Object.entries({ ...headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' }).map(
      ([name, value]) => `${name}: ${value}\r\n`,
    );
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${body}`, () => socket.destroy());
  });
  return server;
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

  // Throws at once without an allowed origin, as the stack does.
  gatewayCorsOrigin(options.allowedOrigins);
  const sendGatewayError = (response: ServerResponse, type: GatewayResponseType | FrontEndResponseType, requestId: string) => {
    const { status, headers, body } = gatewayErrorResponse(type, requestId, options.allowedOrigins);
    // Nothing of a response that failed half-way (a function's headers) leaks into this one.
    for (const name of response.getHeaderNames()) response.removeHeader(name);
    send(response, status, headers, body);
    return status;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<number> => {
    const requestId = randomUUID();
    const now = new Date();
    const accepted = acceptRequest(request);
    if ('refused' in accepted) return sendGatewayError(response, accepted.refused, requestId);
    const { url, query } = accepted;
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

    const pathParameters = dictionary<string>();
    for (const [index, name] of params.entries()) {
      // Every segment decodes (acceptRequest); a parameter is one segment.
      const value = decode(found.match[index + 1] as string);
      if (value === undefined) return sendGatewayError(response, 'MALFORMED_URI', requestId);
      pathParameters[name] = value;
    }
    const sourceIp = (request.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    const requestContext: APIGatewayEventRequestContextWithAuthorizer<Record<string, string> | undefined> = {
      accountId: ACCOUNT,
      apiId: API_ID,
      authorizer: undefined,
      domainName: headerValue(headers, 'host') ?? 'localhost',
      domainPrefix: 'localhost',
      extendedRequestId: requestId,
      httpMethod: method,
      identity: callerIdentity(sourceIp, headerValue(headers, 'user-agent') ?? null),
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
      // Behind an authorizer, API Gateway refuses a method ARN over 1600 bytes with 414.
      if (Buffer.byteLength(methodArn) > MAX_METHOD_ARN_BYTES) return sendGatewayError(response, 'URI_TOO_LONG', requestId);
      // No identity source (lib/routes/index.ts, `authorizer`): the authorizer runs for every request.
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
      ...eventBody(raw),
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
    if (!isProxyResult(result)) return sendGatewayError(response, 'INTEGRATION_FAILURE', requestId);

    // multiValueHeaders and headers are merged, as API Gateway does for a proxy result.
    const out = dictionary<string | string[]>();
    out['x-amzn-RequestId'] = requestId;
    for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) out[name] = values.map(String);
    for (const [name, value] of Object.entries(result.headers ?? {})) {
      const existing = out[name];
      out[name] = Array.isArray(existing) ? [...existing, String(value)] : String(value);
    }
    const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? '');
    response.statusCode = result.statusCode;
    try {
      for (const [name, value] of Object.entries(out)) response.setHeader(name, value);
    } catch (error) {
      // A header name or value HTTP cannot carry: the proxy result is malformed.
      console.error(`[gateway] ${route.id} returned a header HTTP cannot carry:`, error instanceof Error ? error.message : error);
      return sendGatewayError(response, 'INTEGRATION_FAILURE', requestId);
    }
    response.end(body);
    return result.statusCode;
  };

  return (request, response) => {
    const started = process.hrtime.bigint();
    handle(request, response)
      .then((status) => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const target = request.url ?? '';
        const shown = target.length > LOGGED_URL_LENGTH ? `${target.slice(0, LOGGED_URL_LENGTH)}… (${target.length} characters)` : target;
        log(`${request.method} ${shown} ${status} ${ms.toFixed(1)}ms`);
      })
      .catch((error: unknown) => {
        console.error('[gateway] unexpected failure', error);
        if (!response.headersSent) sendGatewayError(response, 'DEFAULT_5XX', randomUUID());
      });
  };
}
