import { AppError, BadRequest, Forbidden, NotFound, PayloadTooLarge, ServiceUnavailable, TooManyRequests, Unauthorized, UnsupportedMediaType } from '../errors';
import { PROBLEM_CONTENT_TYPE, problemFor, type Problem } from './problem';

/**
 * Every response API Gateway produces on its own, before or instead of a route's function,
 * as the same problem documents the functions return (docs/api.md, "Errors"), built from the
 * same error classes. The CDK stack configures these as gateway responses; the local
 * emulator answers with them. Each has a fixed status: a gateway template cannot read the
 * status, so the body's `status` must be fixed per response type.
 *
 * DEFAULT_4XX / DEFAULT_5XX catch the types not listed (API keys, IAM signatures, usage
 * plans, WAF: none of which this API uses).
 */
export const gatewayResponses = [
  // The authorizer threw "Unauthorized", or the Cookie header (identity source) is missing.
  { type: 'UNAUTHORIZED', error: new Unauthorized() },
  { type: 'ACCESS_DENIED', error: new Forbidden() },
  // A REST API's answer to a path or method that no resource defines: 404 for clients.
  { type: 'MISSING_AUTHENTICATION_TOKEN', error: new NotFound('No route matches this method and path') },
  { type: 'RESOURCE_NOT_FOUND', error: new NotFound('No route matches this method and path') },
  // The authorizer failed for another reason (the store is throttling): retryable.
  { type: 'AUTHORIZER_FAILURE', error: new ServiceUnavailable(1, 'Authentication is temporarily unavailable, try again shortly') },
  { type: 'THROTTLED', error: new TooManyRequests(1, 'Too many requests, slow down') },
  { type: 'REQUEST_TOO_LARGE', error: new PayloadTooLarge('The request is too large') },
  { type: 'UNSUPPORTED_MEDIA_TYPE', error: new UnsupportedMediaType('The request body must be application/json') },
  { type: 'BAD_REQUEST_BODY', error: new BadRequest('The request body is invalid') },
  { type: 'BAD_REQUEST_PARAMETERS', error: new BadRequest('The request parameters are invalid') },
  // A function that crashed, timed out or returned garbage: the outcome is unknown, so 500.
  { type: 'INTEGRATION_FAILURE', error: new Error('integration failure') },
  { type: 'INTEGRATION_TIMEOUT', error: new Error('integration timeout') },
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', error: new Error('authorizer configuration error') },
  { type: 'API_CONFIGURATION_ERROR', error: new Error('API configuration error') },
  { type: 'DEFAULT_4XX', error: new BadRequest('The request could not be processed') },
  { type: 'DEFAULT_5XX', error: new Error('gateway error') },
] as const satisfies readonly { type: string; error: Error }[];

export type GatewayResponseType = (typeof gatewayResponses)[number]['type'];

/** 414: the URL, or behind the authorizer the method ARN, is longer than API Gateway takes. */
class UriTooLong extends AppError {
  readonly status = 414;
  readonly type = 'uri-too-long';
  readonly title = 'URI too long';
}

/** 431: the request line and headers together are larger than API Gateway takes. */
class RequestHeaderFieldsTooLarge extends AppError {
  readonly status = 431;
  readonly type = 'request-header-fields-too-large';
  readonly title = 'Request header fields too large';
}

/** 408: the client did not finish sending the request in time. */
class RequestTimeout extends AppError {
  readonly status = 408;
  readonly type = 'request-timeout';
  readonly title = 'Request timeout';
}

/**
 * Answers given before any gateway response applies: on AWS, API Gateway's front end refuses
 * these requests itself (a malformed or oversized request line or header section, a malformed
 * percent-encoding), and no gateway response type exists to configure them, so the stack
 * cannot shape them. The local emulator answers them as the same problem documents, with the
 * same headers as its gateway responses. Not part of the stack.
 */
export const frontEndResponses = [
  // Not HTTP/1.1 the server can parse (bad method, header name, framing).
  { type: 'MALFORMED_REQUEST', error: new BadRequest('The request is not well-formed HTTP') },
  // A `%` not followed by two hex digits, or escapes that are not UTF-8, in the path.
  { type: 'MALFORMED_URI', error: new BadRequest('The request URL has a malformed percent-encoding') },
  { type: 'URI_TOO_LONG', error: new UriTooLong('The request URL is too long') },
  { type: 'HEADERS_TOO_LARGE', error: new RequestHeaderFieldsTooLarge('The request line and headers are too large') },
  { type: 'REQUEST_TIMEOUT', error: new RequestTimeout('The request was not received in time') },
] as const satisfies readonly { type: string; error: Error }[];

export type FrontEndResponseType = (typeof frontEndResponses)[number]['type'];

export const GATEWAY_PROBLEM_CONTENT_TYPE = PROBLEM_CONTENT_TYPE;

/** Static headers every gateway response carries, besides CORS. */
export const GATEWAY_STATIC_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } as const;

/**
 * The problem and extra headers of one gateway (or front-end) response type. `requestId` is
 * `$context.requestId` in the API Gateway template, the emulator's request id locally.
 */
export function gatewayProblem(type: GatewayResponseType | FrontEndResponseType, requestId: string): { problem: Problem; headers: Record<string, string> } {
  const entry = [...gatewayResponses, ...frontEndResponses].find((candidate) => candidate.type === type);
  if (!entry) throw new Error(`Unknown gateway response ${type}`);
  return problemFor(entry.error, requestId);
}

/**
 * The one origin gateway responses grant CORS to: the first allowed origin. A gateway
 * response cannot test the request's Origin against a list, and echoing any Origin would let
 * every site read them; with one browser application per stage (the usual case) its errors
 * stay readable to it and to nobody else. Functions' own responses check the whole list.
 */
export function gatewayCorsOrigin(allowedOrigins: readonly string[]): string {
  const [origin] = allowedOrigins;
  if (!origin) throw new Error('At least one allowed origin is required');
  return origin;
}
