import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { callerId, fromAuthorizerContext } from '../../auth/principal';
import { AppError, TooManyRequests } from '../../errors';
import { consume, consumeCounted, limitScope, takenByChain } from '../../rate-limit';
import { API_KEY_RATE_LIMIT, type Route } from '../../routes';
import { clientIp } from '../request';

/** The counter every request of one API key counts in, whatever its route. */
export const API_KEY_LIMIT_SCOPE = 'api-key';

/**
 * The RateLimit header fields of an API key's window (draft-ietf-httpapi-ratelimit-headers):
 * the policy (`q` requests per `w` seconds) and what is left of it (`r` requests for `t` seconds).
 */
export function keyRateLimitHeaders(remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'RateLimit-Policy': `"${API_KEY_LIMIT_SCOPE}";q=${API_KEY_RATE_LIMIT.limit};w=${API_KEY_RATE_LIMIT.windowSeconds}`,
    RateLimit: `"${API_KEY_LIMIT_SCOPE}";r=${remaining};t=${Math.max(1, Math.ceil(resetSeconds))}`,
  };
}

/**
 * The route's per-request limits from the manifest, counted before any other work (also for
 * requests that will turn out invalid). Limits keyed by an e-mail, and those that count
 * attempts, searches or full reads, are taken by the service, which alone knows what they
 * are keyed by or whether the request needs a slot (lib/rate-limit).
 *
 * A request made with an API key first takes a slot of its key's own window
 * (API_KEY_RATE_LIMIT), and every answer to it, a refusal or a 429 included, says what is
 * left of it (a 5xx, whose error is no AppError, does not).
 */
export function rateLimitGuard(route: Route): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const limits = (route.rateLimits ?? []).filter(takenByChain);
  const keyHeaders = new WeakMap<object, Record<string, string>>();
  return {
    before: async (request) => {
      // A protected route without its principal is a 401 (or a 400) before anything is counted.
      const caller = route.auth === 'protected' ? fromAuthorizerContext(request.event.requestContext?.authorizer) : undefined;
      const nowMs = Date.now();
      if (caller?.kind === 'api-key') {
        const window = { limit: API_KEY_RATE_LIMIT.limit, windowSeconds: API_KEY_RATE_LIMIT.windowSeconds, per: 'user' } as const;
        try {
          const { remaining, resetSeconds } = await consumeCounted(API_KEY_LIMIT_SCOPE, window, { ip: '', userId: caller.keyId }, nowMs);
          keyHeaders.set(request.event, keyRateLimitHeaders(remaining, resetSeconds));
        } catch (error) {
          if (error instanceof TooManyRequests) Object.assign(error.headers, keyRateLimitHeaders(0, Number(error.headers['Retry-After'])));
          throw error;
        }
      }
      if (limits.length === 0) return;
      const ip = clientIp(request.event);
      const userId = caller === undefined ? undefined : callerId(caller);
      for (const limit of limits) await consume(limitScope(route, limit), limit, { ip, userId }, nowMs);
    },
    after: (request) => {
      const headers = keyHeaders.get(request.event);
      if (headers && request.response) request.response.headers = { ...request.response.headers, ...headers };
    },
    // A refused request (400, 404, 409…) counted too: its problem document says what is left.
    onError: (request) => {
      const headers = keyHeaders.get(request.event);
      if (headers && request.error instanceof AppError) Object.assign(request.error.headers, headers);
    },
  };
}
