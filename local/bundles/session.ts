import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { evictionRecord, openSession } from '../../lib/auth/sessions';
import { auditRecord, userActor } from '../../lib/audit/record';
import { findUserByEmail, insertLoginSession } from '../../lib/auth/users-repository';
import { sessionCookies } from '../../lib/http/cookies';
import type { FunctionWorker } from './worker';

/**
 * `npm run invoke -- … --as <email>`: a real session for a user of the local store, made by
 * the code a login runs (lib/auth/sessions `openSession`, persisted with its audit entry as
 * lib/auth/login does), its cookies put into the event, and the authorizer's context filled
 * in by running the authorizer bundle on the event, as API Gateway would before the function.
 *
 * Runs in this process: the caller has pointed the repositories at the local store and set
 * JWT_ISSUER / JWT_AUDIENCE to the template's, so the authorizer bundle accepts the token.
 * A user with a second factor gets a session without it (a local tool, like create-admin).
 */
export async function sessionCookieHeader(email: string, nowMs = Date.now()): Promise<string> {
  const user = await findUserByEmail(email);
  if (!user) throw new Error(`No user ${email} in the local store`);
  const { session, tokens } = await openSession(user, false, { ip: '127.0.0.1', userAgent: 'npm run invoke --as' }, nowMs, user.credentialVersion);
  await insertLoginSession(
    user,
    session,
    auditRecord({ scope: { tenantId: user.tenantId }, action: 'auth.login', resource: { type: 'session', id: session.id }, actor: userActor(user) }, nowMs),
    nowMs,
    evictionRecord(user, nowMs),
  );
  return sessionCookies(tokens)
    .map((cookie) => cookie.split(';')[0] as string)
    .join('; ');
}

/** The event with a Cookie header (replacing any), in `headers` and `multiValueHeaders`. */
export function withCookie<T extends { headers: Record<string, string | undefined> | null; multiValueHeaders: Record<string, string[] | undefined> | null }>(
  event: T,
  cookie: string,
): T {
  const drop = (map: Record<string, unknown> | null) => Object.fromEntries(Object.entries(map ?? {}).filter(([name]) => name.toLowerCase() !== 'cookie'));
  return { ...event, headers: { ...drop(event.headers), Cookie: cookie }, multiValueHeaders: { ...drop(event.multiValueHeaders), Cookie: [cookie] } };
}

/** The REQUEST authorizer event API Gateway builds from a proxy event (identity source: Cookie). */
export function authorizerEventOf(event: APIGatewayProxyEvent): APIGatewayRequestAuthorizerEvent {
  const { requestContext } = event;
  return {
    type: 'REQUEST',
    methodArn: `arn:aws:execute-api:us-east-1:${requestContext.accountId}:${requestContext.apiId}/${requestContext.stage}/${event.httpMethod}${event.path}`,
    resource: event.resource,
    path: event.path,
    httpMethod: event.httpMethod,
    headers: event.headers,
    multiValueHeaders: event.multiValueHeaders,
    pathParameters: event.pathParameters,
    queryStringParameters: event.queryStringParameters,
    multiValueQueryStringParameters: event.multiValueQueryStringParameters,
    stageVariables: event.stageVariables,
    requestContext: { ...requestContext, authorizer: undefined },
  };
}

/**
 * Runs the authorizer on the event and returns the event with `requestContext.authorizer` as
 * API Gateway passes it (the context's values as strings, and principalId). Throws when the
 * authorizer refuses (API Gateway would answer 401 or 403 without invoking the function).
 */
export async function authorize(event: APIGatewayProxyEvent, authorizer: FunctionWorker): Promise<APIGatewayProxyEvent> {
  const result = (await authorizer.invoke(authorizerEventOf(event))) as APIGatewayAuthorizerResult;
  const allowed = result.policyDocument.Statement.some((statement) => statement.Effect === 'Allow');
  if (!allowed) throw new Error(`The authorizer denied the request (policy ${JSON.stringify(result.policyDocument)})`);
  const context = Object.fromEntries(Object.entries(result.context ?? {}).map(([key, value]) => [key, String(value)]));
  return { ...event, requestContext: { ...event.requestContext, authorizer: { ...context, principalId: result.principalId } } };
}
