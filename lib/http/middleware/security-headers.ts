import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

/**
 * The security headers on every answer: exactly what @middy/http-security-headers (helmet's
 * defaults) set on a JSON answer with `poweredBy` and `reportingEndpoints` off, as the
 * functions configured it, written out. Its other headers (Content-Security-Policy,
 * Permissions-Policy, X-Frame-Options and the rest) are for HTML answers, which no function
 * gives (JSON, problem+json, or no body); for them the package built its whole configuration
 * at cold start, 4 KB of every function.
 */
export const SECURITY_HEADERS = {
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Permitted-Cross-Domain-Policies': 'none',
} as const;

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** What middy's `normalizeHttpResponse` (@middy/util) does first: an answer with a status and headers to add to. */
function normalized(request: HttpRequest): APIGatewayProxyResult {
  let response = request.response as { statusCode?: number; body?: unknown; headers?: Record<string, unknown> } | undefined;
  if (typeof response === 'undefined') response = {};
  else if (typeof response?.statusCode === 'undefined' && typeof response?.body === 'undefined' && typeof response?.headers === 'undefined') {
    response = { statusCode: 200, body: response };
  }
  response.statusCode ??= 500;
  response.headers ??= {};
  request.response = response as APIGatewayProxyResult;
  return request.response;
}

export function securityHeaders(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const after = (request: HttpRequest): void => {
    Object.assign(normalized(request).headers as Record<string, string>, SECURITY_HEADERS);
  };
  return {
    after,
    // An error the problem handler did not turn into an answer gets none (as the package did).
    onError: (request) => {
      if (request.response === undefined) return;
      after(request);
    },
  };
}
