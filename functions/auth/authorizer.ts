import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent, Context } from 'aws-lambda';
import { authorizeKey } from '../../lib/api-keys/authorize';
import { authorize } from '../../lib/auth/authorize';
import { refusalContext, toAuthorizerContext, type PrincipalContext } from '../../lib/auth/principal';
import { Forbidden, Unauthorized } from '../../lib/errors';
import { ACCESS_COOKIE } from '../../lib/http/cookies';
import { bearerToken, clientIp, cookies, header } from '../../lib/http/request';
import { logger } from '../../lib/log';
import { routeKeyAccess } from '../../lib/routes';

const allow = (event: APIGatewayRequestAuthorizerEvent, principalId: string, context: PrincipalContext): APIGatewayAuthorizerResult => ({
  principalId,
  policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
  context,
});

/**
 * REQUEST authorizer of every protected route, for both credentials: the `accessToken`
 * cookie of a signed-in user, or `Authorization: Bearer <API key>` of a system
 * (lib/api-keys). A bad, expired or revoked credential throws `Unauthorized`, which API
 * Gateway answers with 401 (the UNAUTHORIZED gateway response), so browser clients know to
 * refresh. Both credentials at once (400), or a valid key this route, its scopes or its
 * company do not open (403), are let through with a refusal and no principal, for the
 * function to answer in words (lib/auth/principal `Refusal`). A store failure propagates:
 * AUTHORIZER_FAILURE, a 503.
 */
export const handler = async (event: APIGatewayRequestAuthorizerEvent, context?: Context): Promise<APIGatewayAuthorizerResult> => {
  // What Powertools' injectLambdaContext does, without middy on the hottest function: the
  // function, its memory, the invocation and the cold-start flag on every line.
  if (context) logger.addContext(context);
  logger.resetKeys();
  logger.appendKeys({ requestId: event.requestContext?.requestId });
  try {
    const accessToken = cookies(event)[ACCESS_COOKIE];
    const authorization = header(event, 'authorization');
    if (authorization === undefined) {
      const principal = await authorize(accessToken, Date.now());
      return allow(event, principal.userId, toAuthorizerContext(principal));
    }
    if (accessToken !== undefined)
      return allow(event, 'refused', refusalContext('both-credentials', 'Send either the session cookie or an API key (Authorization: Bearer), not both'));
    const keyText = bearerToken(authorization);
    if (keyText === undefined) throw new Unauthorized('The Authorization header must be "Bearer <API key>"');
    // Keys are for servers: a browser adds Origin (on every request but a same-origin GET) and
    // Sec-Fetch-Site (on every request), and a key in a browser is a leaked key. Not
    // Sec-Fetch-Mode: Node's own fetch sends that one.
    if (header(event, 'origin') !== undefined || header(event, 'sec-fetch-site') !== undefined) {
      throw new Unauthorized('API keys are refused from browsers (the request has an Origin or Sec-Fetch-Site header)');
    }
    const caller = await authorizeKey(
      { keyText, needs: routeKeyAccess(event.httpMethod, event.resource), method: event.httpMethod, pathParameters: event.pathParameters, ip: clientIp(event) },
      Date.now(),
    );
    return allow(event, caller.keyId, toAuthorizerContext(caller));
  } catch (error) {
    if (error instanceof Unauthorized) {
      logger.info('access denied', { reason: error.message });
      throw new Error('Unauthorized', { cause: error });
    }
    if (error instanceof Forbidden) {
      logger.info('access forbidden', { reason: error.message });
      return allow(event, 'refused', refusalContext('forbidden', error.message));
    }
    logger.error('authorizer failed', { error: error as Error });
    throw error;
  }
};
