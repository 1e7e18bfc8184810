import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { Forbidden } from '../../errors';
import { header } from '../request';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Rejects cross-site state-changing requests before anything runs: an `Origin` that is
 * present and not allowed, or `Sec-Fetch-Site: cross-site` (OWASP CSRF defence in depth,
 * on top of SameSite cookies).
 */
export function csrfGuard(allowedOrigins: readonly string[]): MiddlewareObj<APIGatewayProxyEvent> {
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
