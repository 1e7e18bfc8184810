import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequest } from '../../errors';
import { logger } from '../../log';
import { countServerError, countThrottled } from '../../metrics';
import { classify, problemResponse } from '../problem';

function isBodyParserError(error: unknown): boolean {
  const cause = (error as { cause?: { package?: string } } | undefined)?.cause;
  return cause?.package === '@middy/http-json-body-parser';
}

/**
 * Maps every error to a problem response (registered last so it runs first on error), and
 * counts the route's 429s and 5xx (lib/metrics).
 */
export function problemHandler(route: string): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const error = isBodyParserError(request.error) ? new BadRequest('The request body is not valid JSON') : request.error;
      const { status } = classify(error);
      if (status >= 500) {
        logger.error('request failed', { error: request.error as Error });
        countServerError(route);
      }
      if (status === 429) countThrottled(route);
      request.response = problemResponse(error, request.event.requestContext?.requestId ?? request.context.awsRequestId);
    },
  };
}
