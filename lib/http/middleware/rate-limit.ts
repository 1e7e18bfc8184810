import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { fromAuthorizerContext } from '../../auth/principal';
import { consume, limitScope } from '../../rate-limit';
import type { Route } from '../../routes';

/**
 * The route's rate limit from the manifest, counted before any other work (also for
 * requests that will turn out invalid). Limits that count attempts (login) are taken by the
 * service itself, which alone knows the e-mail they are keyed by.
 */
export function rateLimitGuard(route: Route): MiddlewareObj<APIGatewayProxyEvent> {
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
