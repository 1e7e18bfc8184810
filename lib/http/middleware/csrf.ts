import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { Forbidden } from '../../errors';
import { header } from '../request';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Rejects cross-site state-changing requests before anything runs: an `Origin` that is
 * present and not allowed, or `Sec-Fetch-Site: cross-site` (OWASP CSRF defence in depth,
 * on top of SameSite cookies). A request the authorizer let through with an API key is no
 * browser's (one with an Origin header was refused with 401): the guard has nothing to do.
 */
export function csrfGuard(allowedOrigins: readonly string[]): MiddlewareObj<APIGatewayProxyEvent> {
  return {
    before: (request) => {
      if (!STATE_CHANGING.has(request.event.httpMethod)) return;
      if (request.event.requestContext?.authorizer?.kind === 'api-key') return;
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
