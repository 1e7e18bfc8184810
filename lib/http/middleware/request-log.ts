import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../../log';

/** One log line per invocation, with the ids of who asked; never bodies, cookies or tokens. */
export function requestLog(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
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
