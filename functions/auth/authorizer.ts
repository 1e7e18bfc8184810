import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { authorize } from '../../lib/auth/authorize';
import { toAuthorizerContext } from '../../lib/auth/principal';
import { Unauthorized } from '../../lib/errors';
import { ACCESS_COOKIE } from '../../lib/http/cookies';
import { cookies } from '../../lib/http/request';
import { logger } from '../../lib/log';

/**
 * REQUEST authorizer of every protected route. A bad, expired or revoked token throws
 * `Unauthorized`, which API Gateway answers with 401 (the UNAUTHORIZED gateway response), so
 * browser clients know to refresh. A store failure propagates: AUTHORIZER_FAILURE, a 503.
 */
export const handler = async (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> => {
  // What Powertools' injectLambdaContext does, without middy on the hottest function: the
  // function, its memory, the invocation and the cold-start flag on every line.
  if (context) logger.addContext(context);
  logger.resetKeys();
  logger.appendKeys({ requestId: event.requestContext?.requestId });
  try {
    const principal = await authorize(cookies(event)[ACCESS_COOKIE], Date.now());
    return {
      principalId: principal.userId,
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
      context: toAuthorizerContext(principal),
    };
  } catch (error) {
    if (error instanceof Unauthorized) {
      logger.info('access denied', { reason: error.message });
      throw new Error('Unauthorized', { cause: error });
    }
    logger.error('authorizer failed', { error: error as Error });
    throw error;
  }
};
