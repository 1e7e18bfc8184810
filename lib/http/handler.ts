import middy from '@middy/core';
import httpCors from '@middy/http-cors';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { withRequestOrigin } from '../audit/context';
import { keyActor, userActor } from '../audit/record';
import { fromAuthorizerContext, type Caller, type Principal } from '../auth/principal';
import { config } from '../config';
import { logger } from '../log';
import { countIdempotentReplay } from '../metrics';
import { Forbidden, MfaEnrolmentRequired, ValidationError } from '../errors';
import type { IdempotentWrite } from '../idempotency/model';
import { abandonIdempotent, finishIdempotent, startIdempotent } from '../idempotency/service';
import type { Route } from '../routes';
import { bodyGuard, jsonGuard } from './middleware/body';
import { csrfGuard } from './middleware/csrf';
import { problemHandler } from './middleware/problems';
import { rateLimitGuard } from './middleware/rate-limit';
import { requestLog } from './middleware/request-log';
import { securityHeaders } from './middleware/security-headers';
import { clientIp, cookies, header, IDEMPOTENCY_KEY_HEADER, idempotencyKey } from './request';
import { storedHeaderText } from '../domain/text';
import { MAX_USER_AGENT } from '../audit/record';
import { parseWith } from '../domain/validation';

/** What a handler returns; the factory turns it into the proxy response. */
export interface Reply {
  status: number;
  body?: unknown;
  cookies?: string[];
  headers?: Record<string, string>;
}

export interface RequestInfo {
  requestId: string;
  /** The caller's address (`clientIp`: API Gateway's, or the viewer's behind the distribution), never X-Forwarded-For. */
  ip: string;
  userAgent: string;
  cookies: Record<string, string>;
  /** The `If-Match` header, as given (a route that honours it parses it). */
  ifMatch: string | undefined;
}

type Output<S> = S extends z.core.$ZodType ? z.output<S> : undefined;

/**
 * What the handler validates: the schemas the chain parses the body, the query and the path
 * with. Everything else about a route (its answer, its errors, its words and its sample
 * request) is tooling's, stated beside the handler in a `ROUTE_DOCS:` statement
 * (./route-docs) that the bundles drop.
 */
export interface HandlerInputSpec<B, Q, P> {
  body?: B;
  query?: Q;
  path?: P;
}

export interface HandlerInput<R extends Route, B, Q, P> {
  body: Output<B>;
  query: Output<Q>;
  path: Output<P>;
  /** The signed-in user; on a route API keys may use (`apiKey` in the manifest), the user or the key. */
  principal: R['auth'] extends 'protected' ? (R extends { apiKey: { resource: string } } ? Caller : Principal) : undefined;
  request: RequestInfo;
  /**
   * On a route the manifest marks `idempotent`, when the request carries an Idempotency-Key:
   * pass it to the service, whose repository completes the key in the write's transaction.
   */
  idempotency: IdempotentWrite | undefined;
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * A handler from the factory: it also tells which route it serves and what it validates;
 * where the sources run (tools, tests, the local API), `describeRoute` adds its docs.
 */
export type RouteHandler = Handler & { readonly route: Route; readonly input: HandlerInputSpec<unknown, unknown, unknown> };

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

/** The first answer of an Idempotency-Key, again, marked as such. */
function replayed(status: number, body: string): APIGatewayProxyResult {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Idempotent-Replayed': 'true' };
  if (body !== '') headers['Content-Type'] = 'application/json';
  return { statusCode: status, headers, body };
}

function requestInfo(event: APIGatewayProxyEvent, context: Context): RequestInfo {
  return {
    requestId: event.requestContext?.requestId ?? context.awsRequestId,
    ip: clientIp(event),
    // The client's to choose, and stored (sessions, the audit trail): the stored-text rule, cut to a length.
    userAgent: storedHeaderText(header(event, 'user-agent') ?? '', MAX_USER_AGENT),
    cookies: cookies(event),
    ifMatch: header(event, 'if-match'),
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
 * security headers, CORS for the configured origins, problem responses, CSRF guard, rate
 * limit, body guard, JSON rules and parser; each in `./middleware/`), then `fn` gets
 * validated input and returns a Reply.
 *
 * The chain is built on the first invocation, so importing a handler reads no configuration.
 */
/** 403 for a caller the route's `admin` leaves out (a member on a tenant administrators' route; anyone but a platform administrator on theirs). */
function refuseOutsider(route: Route, principal: Caller | undefined): void {
  if (!route.admin || !principal) return;
  const platformAdmin = principal.platformAdmin;
  if (route.admin === 'platform' && !platformAdmin) throw new Forbidden('Only a platform administrator may call this route');
  if (route.admin === 'tenant' && principal.role !== 'ADMIN' && !platformAdmin) throw new Forbidden('Only a tenant administrator may call this route');
}

export function httpHandler<
  R extends Route,
  B extends z.core.$ZodType | undefined = undefined,
  Q extends z.core.$ZodType | undefined = undefined,
  P extends z.core.$ZodType | undefined = undefined,
>(route: R, spec: HandlerInputSpec<B, Q, P>, fn: (input: HandlerInput<R, B, Q, P>) => Promise<Reply>): RouteHandler {
  let built: Handler | undefined;
  /** The route's dimension value in the metrics (`POST /auth/login`). */
  const routeName = `${route.method} ${route.path}`;

  const build = (): Handler => {
    const { ALLOWED_ORIGINS } = config();
    const core = async (event: APIGatewayProxyEvent, context: Context): Promise<APIGatewayProxyResult> => {
      const principal = route.auth === 'protected' ? fromAuthorizerContext(event.requestContext?.authorizer) : undefined;
      // The authorizer already denied it; a function never trusts that alone.
      if (principal?.kind === 'api-key' && !route.apiKey) throw new Forbidden('API keys cannot use this route: it takes a signed-in session');
      // A tenant that requires a second factor of a user without one opens only its enrolment.
      if (principal?.mfaEnrolmentRequired && !route.openDuringMfaEnrolment) throw new MfaEnrolmentRequired();
      // A public route's key would be scoped to a client IP, which callers behind one NAT share.
      if (route.refusesIdempotencyKey && header(event, IDEMPOTENCY_KEY_HEADER) !== undefined) {
        throw ValidationError.of(IDEMPOTENCY_KEY_HEADER, 'is not taken by this public route: a retry that finds the name taken gets 409');
      }
      const key = route.idempotent ? idempotencyKey(event) : undefined;
      let parsed: Pick<HandlerInput<R, B, Q, P>, 'body' | 'query' | 'path'>;
      try {
        parsed = {
          body: (spec.body ? parseWith(spec.body, event.body) : undefined) as Output<B>,
          query: (spec.query ? parseWith(spec.query, singleValuedQuery(event)) : undefined) as Output<Q>,
          path: (spec.path ? parseWith(spec.path, event.pathParameters ?? {}) : undefined) as Output<P>,
        };
      } catch (error) {
        // Who may call the route comes before what the request looks like: a member gets 403 whatever the id, not a 400 that tells the id's format.
        if (error instanceof ValidationError) refuseOutsider(route, principal);
        throw error;
      }
      const input = { ...parsed, principal, request: requestInfo(event, context), idempotency: undefined } as HandlerInput<R, B, Q, P>;
      // Every audit entry this request writes names it (lib/audit/context).
      const origin = {
        requestId: input.request.requestId,
        sourceIp: input.request.ip,
        // A request without a User-Agent has none (null), like a script's.
        userAgent: input.request.userAgent === '' ? null : input.request.userAgent,
        ...(principal
          ? {
              actor:
                principal.kind === 'api-key'
                  ? keyActor({ id: principal.keyId, name: principal.name })
                  : userActor({ id: principal.userId, name: principal.name }),
            }
          : {}),
      };
      return withRequestOrigin(origin, () => handle(event, input, key));
    };

    const handle = async (event: APIGatewayProxyEvent, input: HandlerInput<R, B, Q, P>, key: string | undefined): Promise<APIGatewayProxyResult> => {
      const principal = input.principal as Caller | undefined;
      if (key === undefined || !route.idempotent) return toResult(await fn(input));

      // Only a valid request takes its key: one refused by its schemas leaves nothing behind.
      // Keys are scoped to the signed-in user, to the API key, or on a public route to the address.
      const caller = principal
        ? principal.kind === 'api-key'
          ? { tenantId: principal.tenantId, apiKeyId: principal.keyId }
          : { tenantId: principal.tenantId, userId: principal.userId }
        : { ip: input.request.ip };
      const start = await startIdempotent(
        caller,
        key,
        { method: event.httpMethod, path: event.path, body: event.body, successStatus: route.idempotent.status },
        Date.now(),
      );
      if (start.kind === 'replay') {
        countIdempotentReplay(routeName);
        return replayed(start.status, start.body);
      }
      try {
        const reply = await fn({ ...input, idempotency: start.write });
        await finishIdempotent(start.write, reply.body);
        return toResult(reply);
      } catch (error) {
        // The key goes back for a retry; if the store cannot take it back now, its lease ends it.
        await abandonIdempotent(start.write).catch((releaseError: unknown) => logger.warn('idempotency key not released', { error: releaseError as Error }));
        throw error;
      }
    };

    const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>(core)
      .use(requestLog())
      .use(securityHeaders())
      // One CORS answer for every route: a browser script may read Idempotent-Replayed (idempotent
      // routes send it), Link (the list routes' next page) and the coverage dashboard's day.
      .use(
        httpCors({ origins: [...ALLOWED_ORIGINS], credentials: true, exposeHeaders: 'Idempotent-Replayed, Link, Coverage-Figures-Date, Coverage-Stale, ETag' }),
      )
      .use(problemHandler(routeName))
      .use(csrfGuard(ALLOWED_ORIGINS))
      .use(rateLimitGuard(route));
    if (spec.body) {
      // The body guard already checked the content type (case-insensitively); the option
      // exists at run time but is missing from the package's type declarations.
      chain
        .use(bodyGuard(true))
        .use(jsonGuard())
        .use(httpJsonBodyParser({ disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0]));
    } else {
      chain.use(bodyGuard(false));
    }
    return chain;
  };

  const handler: Handler = (event, context) => (built ??= build())(event, context);
  // Tooling reads both, with the route's docs: the OpenAPI document, the sample events, the
  // default bench scenario and the route table of docs/routes.md are derived from them.
  return Object.assign(handler, { route, input: spec });
}

/** Reply helpers, so handlers read as what they answer. */
export const ok = (body: unknown, extra: Omit<Reply, 'status' | 'body'> = {}): Reply => ({ status: 200, body, ...extra });
export const created = (body: unknown, extra: Omit<Reply, 'status' | 'body'> = {}): Reply => ({ status: 201, body, ...extra });
