import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { fromAuthorizerContext } from '../../auth/principal';
import { consume, limitScope, takenByChain } from '../../rate-limit';
import type { Route } from '../../routes';
import { clientIp } from '../request';

/**
 * The route's per-request limits from the manifest, counted before any other work (also for
 * requests that will turn out invalid). Limits keyed by an e-mail, and those that count
 * attempts, searches or full reads, are taken by the service, which alone knows what they
 * are keyed by or whether the request needs a slot (lib/rate-limit).
 */
export function rateLimitGuard(route: Route): MiddlewareObj<APIGatewayProxyEvent> {
  const limits = (route.rateLimits ?? []).filter(takenByChain);
  return {
    before: async (request) => {
      if (limits.length === 0) return;
      // A protected route without its principal is a 401 before anything is counted.
      const userId = route.auth === 'protected' ? fromAuthorizerContext(request.event.requestContext?.authorizer).userId : undefined;
      const ip = clientIp(request.event);
      for (const limit of limits) await consume(limitScope(route, limit), limit, { ip, userId }, Date.now());
    },
  };
}
