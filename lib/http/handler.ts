import middy, { type MiddlewareObj } from '@middy/core';
import httpCors from '@middy/http-cors';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod';
import { fromAuthorizerContext, type Principal } from '../auth/principal';
import { config } from '../config';
import { BadRequest, Forbidden, PayloadTooLarge, UnsupportedMediaType, ValidationError } from '../errors';
import { logger } from '../log';
import { consume, limitScope } from '../rate-limit';
import type { Route } from '../routes';
import { inspectJson, isJson, MAX_JSON_DEPTH } from './json';
import { classify, problemResponse } from './problem';
import { cookies, header } from './request';
import { parseWith } from './validation';

export const MAX_BODY_BYTES = 64 * 1024;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_CONTENT_TYPE = /^application\/json\s*(;.*)?$/i;
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * helmet-style defaults, minus the two that would emit empty or "undefined" headers from an
 * API: no Server / X-Powered-By to hide, no reporting endpoint configured. (The typings of
 * the package lack `reportingEndpoints`.)
 */
const SECURITY_HEADERS = { poweredBy: false, reportingEndpoints: false } as Parameters<typeof httpSecurityHeaders>[0];

/** What a handler returns; the factory turns it into the proxy response. */
export interface Reply {
  status: number;
  body?: unknown;
  cookies?: string[];
  headers?: Record<string, string>;
}

export interface RequestInfo {
  requestId: string;
  /** API Gateway's view of the caller's address, never X-Forwarded-For. */
  ip: string;
  userAgent: string;
  cookies: Record<string, string>;
}

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerSpec<B, Q, P> {
  body?: B;
  query?: Q;
  path?: P;
}

export interface HandlerInput<R extends Route, B, Q, P> {
  body: Output<B>;
  query: Output<Q>;
  path: Output<P>;
  principal: R['auth'] extends 'protected' ? Principal : undefined;
  request: RequestInfo;
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** A handler from the factory: it also tells which route it serves and what it validates. */
export type RouteHandler = Handler & { readonly route: Route; readonly spec: HandlerSpec<unknown, unknown, unknown> };

/**
 * Rejects cross-site state-changing requests before anything runs: an `Origin` that is
 * present and not allowed, or `Sec-Fetch-Site: cross-site` (OWASP CSRF defence in depth,
 * on top of SameSite cookies).
 */
function csrfGuard(allowedOrigins: readonly string[]): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: (request) => {
      if (!STATE_CHANGING.has(request.event.httpMethod)) return;
      const origin = header(request.event, 'origin');
      if (origin !== undefined && !allowedOrigins.includes(origin)) {
        throw new Forbidden('Cross-origin request refused');
      }
      if (header(request.event, 'sec-fetch-site')?.toLowerCase() === 'cross-site') {
        throw new Forbidden('Cross-site request refused');
      }
    },
  };
}

/**
 * The route's rate limit from the manifest, counted before any other work (also for
 * requests that will turn out invalid). Limits that count attempts (login) are taken by the
 * service itself, which alone knows the e-mail they are keyed by.
 */
function rateLimitGuard(route: Route): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: async (request) => {
      const limit = route.rateLimit;
      if (!limit || limit.counts === 'attempts') return;
      // A protected route without its principal is a 401 before anything is counted.
      const userId = route.auth === 'protected' ? fromAuthorizerContext(request.event.requestContext?.authorizer).userId : undefined;
      await consume(limitScope(route), limit, { ip: request.event.requestContext?.identity?.sourceIp ?? 'unknown', userId }, Date.now());
    },
  };
}

/** A `charset` parameter of a content type, lower-cased, or undefined. */
function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(contentType)?.[1]?.toLowerCase();
}

/**
 * 413 / 415 / 400 for a body before it is parsed. Routes that take no body still refuse an
 * oversized or non-JSON one (contract section 1); an empty or JSON body is ignored there.
 * A charset other than UTF-8 is a 415. A body API Gateway passes base64-encoded (bytes
 * that are not text) is decoded strictly where the route reads it: bytes that are not
 * UTF-8 are a 400, never text with replacement characters in it.
 */
function bodyGuard(required: boolean): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: (request) => {
      const { body, isBase64Encoded } = request.event;
      if (body === null || body === undefined || body === '') {
        if (required) throw new BadRequest('A JSON request body is required');
        return;
      }
      if (Buffer.byteLength(body, isBase64Encoded ? 'base64' : 'utf8') > MAX_BODY_BYTES) {
        throw new PayloadTooLarge(`The request body is larger than ${MAX_BODY_BYTES} bytes`);
      }
      const contentType = header(request.event, 'content-type');
      if (!contentType || !JSON_CONTENT_TYPE.test(contentType)) {
        throw new UnsupportedMediaType('The request body must be application/json');
      }
      const charset = charsetOf(contentType);
      if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
        throw new UnsupportedMediaType('The request body must be UTF-8 (charset=utf-8 or no charset)');
      }
      // A route that takes no body never reads it: its bytes are not decoded.
      if (isBase64Encoded && required) {
        try {
          request.event.body = STRICT_UTF8.decode(Buffer.from(body, 'base64'));
        } catch {
          throw new BadRequest('The request body is not valid UTF-8');
        }
        request.event.isBase64Encoded = false;
      }
    },
  };
}

/**
 * The rules JSON.parse does not keep (lib/http/json): nesting depth, reserved keys and
 * duplicate keys, checked on the text before it is parsed. Text that is not JSON is left
 * to the parser's 400.
 */
function jsonGuard(): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: (request) => {
      const { body } = request.event;
      if (typeof body !== 'string') return;
      const finding = inspectJson(body);
      if (finding?.kind === 'too-deep') throw new BadRequest(`The request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
      if (finding && isJson(body)) throw ValidationError.of(finding.field, finding.message);
    },
  };
}

function isBodyParserError(error: unknown): boolean {
  const cause = (error as { cause?: { package?: string } } | undefined)?.cause;
  return cause?.package === '@middy/http-json-body-parser';
}

/** Maps every error to a problem response (registered last so it runs first on error). */
function problemHandler(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const error = isBodyParserError(request.error) ? new BadRequest('The request body is not valid JSON') : request.error;
      const { status } = classify(error);
      if (status >= 500) logger.error('request failed', { error: request.error as Error });
      request.response = problemResponse(error, request.event.requestContext?.requestId ?? request.context.awsRequestId);
    },
  };
}

/** One log line per invocation, with the ids of who asked; never bodies, cookies or tokens. */
function requestLog(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  let started = 0;
  const done = (request: { event: APIGatewayProxyEvent; response: APIGatewayProxyResult | null | undefined }) => {
    logger.info('request', {
      method: request.event.httpMethod,
      resource: request.event.resource,
      status: request.response?.statusCode,
      durationMs: Date.now() - started,
    });
  };
  return {
    before: (request) => {
      started = Date.now();
      const authorizer = request.event.requestContext?.authorizer;
      logger.resetKeys();
      logger.appendKeys({
        requestId: request.event.requestContext?.requestId,
        tenantId: typeof authorizer?.tenantId === 'string' ? authorizer.tenantId : undefined,
        userId: typeof authorizer?.userId === 'string' ? authorizer.userId : undefined,
      });
    },
    after: done,
    onError: done,
  };
}

function toResult(reply: Reply): APIGatewayProxyResult {
  const result: APIGatewayProxyResult = {
    statusCode: reply.status,
    headers: { 'Cache-Control': 'no-store', ...reply.headers },
    body: reply.body === undefined ? '' : JSON.stringify(reply.body),
  };
  if (reply.body !== undefined) result.headers = { ...result.headers, 'Content-Type': 'application/json' };
  if (reply.cookies?.length) result.multiValueHeaders = { 'Set-Cookie': reply.cookies };
  return result;
}

function requestInfo(event: APIGatewayProxyEvent, context: Context): RequestInfo {
  return {
    requestId: event.requestContext?.requestId ?? context.awsRequestId,
    ip: event.requestContext?.identity?.sourceIp ?? 'unknown',
    userAgent: header(event, 'user-agent') ?? '',
    cookies: cookies(event),
  };
}

/** Query parameters given more than once are refused rather than silently picking one. */
function singleValuedQuery(event: APIGatewayProxyEvent): Record<string, string> {
  for (const [key, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    if (values && values.length > 1) throw ValidationError.of(key, 'given more than once');
  }
  // No prototype: `__proto__` or `constructor` is a parameter name like any other (and an
  // unknown one, so the strict query schemas refuse it by name).
  const query: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value !== undefined) query[key] = value;
  }
  return query;
}

/**
 * The one factory for HTTP handlers: every function gets the same middy chain (request log,
 * security headers, CORS for the configured origins, problem responses, CSRF guard, body
 * guard and JSON parser), then `fn` gets validated input and returns a Reply.
 *
 * The chain is built on the first invocation, so importing a handler reads no configuration.
 */
export function httpHandler<R extends Route, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, P extends z.ZodType | undefined = undefined>(
  route: R,
  spec: HandlerSpec<B, Q, P>,
  fn: (input: HandlerInput<R, B, Q, P>) => Promise<Reply>,
): RouteHandler {
  let built: Handler | undefined;

  const build = (): Handler => {
    const { ALLOWED_ORIGINS } = config();
    const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
      const principal = route.auth === 'protected' ? fromAuthorizerContext(event.requestContext?.authorizer) : undefined;
      const input = {
        body: spec.body ? parseWith(spec.body, event.body) : undefined,
        query: spec.query ? parseWith(spec.query, singleValuedQuery(event)) : undefined,
        path: spec.path ? parseWith(spec.path, event.pathParameters ?? {}) : undefined,
        principal,
        request: requestInfo(event, context),
      } as HandlerInput<R, B, Q, P>;
      return toResult(await fn(input));
    };

    const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>(core)
      .use(requestLog())
      .use(httpSecurityHeaders(SECURITY_HEADERS))
      .use(httpCors({ origins: [...ALLOWED_ORIGINS], credentials: true }))
      .use(problemHandler())
      .use(csrfGuard(ALLOWED_ORIGINS))
      .use(rateLimitGuard(route));
    if (spec.body) {
      // The body guard already checked the content type (case-insensitively); the option
      // exists at run time but is missing from the package's type declarations.
      chain.use(bodyGuard(true)).use(jsonGuard()).use(httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]));
    } else {
      chain.use(bodyGuard(false));
    }
    return chain;
  };

  const handler: Handler = (event, context) => (built ??= build())(event, context);
  // The OpenAPI tests check that the document describes exactly what the handler validates.
  return Object.assign(handler, { route, spec });
}

/** Reply helpers, so handlers read as what they answer. */
export const ok = (body: unknown, extra: Omit<Reply, 'status' | 'body'> = {}): Reply => ({ status: 200, body, ...extra });
export const created = (body: unknown, extra: Omit<Reply, 'status' | 'body'> = {}): Reply => ({ status: 201, body, ...extra });
