import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../../log';

/**
 * One log line per invocation, with the ids of who asked; never bodies, cookies or tokens.
 *
 * Every line of the invocation also carries the Lambda context: the function, its memory,
 * the invocation id and the cold-start flag. That is Powertools' `injectLambdaContext`
 * (`logger.addContext`, which its middleware calls) without the middleware's other step, a
 * reset of the log level to the one the logger was built with on every invocation (for
 * debug sampling, which we do not use): locally the level is set after the logger is built.
 */
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
      logger.addContext(request.context);
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
