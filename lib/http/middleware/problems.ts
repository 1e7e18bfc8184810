import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { BadRequest } from '../../errors';
import { logger } from '../../log';
import { classify, problemResponse } from '../problem';

function isBodyParserError(error: unknown): boolean {
  const cause = (error as { cause?: { package?: string } } | undefined)?.cause;
  return cause?.package === '@middy/http-json-body-parser';
}

/** Maps every error to a problem response (registered last so it runs first on error). */
export function problemHandler(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  return {
    onError: (request) => {
      const error = isBodyParserError(request.error) ? new BadRequest('The request body is not valid JSON') : request.error;
      const { status } = classify(error);
      if (status >= 500) logger.error('request failed', { error: request.error as Error });
      request.response = problemResponse(error, request.event.requestContext?.requestId ?? request.context.awsRequestId);
    },
  };
}
