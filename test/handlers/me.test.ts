import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/auth/me';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { lambdaContext, proxyEvent } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { jsonHeaders, NO_ORIGIN_CORS_HEADERS, parsed, problem, problemHeaders } from './responses';

const ddb = mockClient(DynamoDBDocumentClient);
const REQUEST_ID = 'me-request-1';

const principal: Principal = testPrincipal();

const getMe = (authorizer: Record<string, string> | null, headers: Record<string, string> = { Origin: 'https://app.example.com' }) =>
  handler(proxyEvent({ method: 'GET', resource: '/auth/me', authorizer, headers, requestId: REQUEST_ID }), lambdaContext());

beforeEach(() => {
  ddb.reset();
});

describe('GET /auth/me', () => {
  it('returns the user of the authorizer context without reading the store', async () => {
    const result = await getMe(toAuthorizerContext(principal));

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: { id: principal.userId, name: 'Ana Souza', email: 'ana@acme.example', tenantId: principal.tenantId },
    });
    expect(ddb.calls()).toHaveLength(0);
  });

  it('returns 401 without an authorizer context', async () => {
    const result = await getMe(null);

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Authentication is required or has failed', REQUEST_ID),
    });
  });

  it.each([
    ['the tenant is missing', { tenantId: '' }],
    ['the role is unknown', { role: 'OWNER' }],
  ])('returns 401 when %s', async (_label, change) => {
    const result = await getMe({ ...toAuthorizerContext(principal), ...change });

    expect(parsed(result)).toEqual({
      statusCode: 401,
      headers: problemHeaders(),
      body: problem('unauthorized', 'Unauthorized', 401, 'Authentication is required or has failed', REQUEST_ID),
    });
  });

  it('answers a read from a foreign origin without CORS headers that would let it read the answer', async () => {
    const result = await getMe(toAuthorizerContext(principal), { Origin: 'https://evil.example.com' });

    expect(result.statusCode).toBe(200);
    expect(result.headers).toEqual(jsonHeaders(NO_ORIGIN_CORS_HEADERS));
  });

  it('ignores a JSON request body on a route that takes none', async () => {
    const event = proxyEvent({
      method: 'GET',
      resource: '/auth/me',
      authorizer: toAuthorizerContext(principal),
      body: '{"x":1}',
      headers: { 'Content-Type': 'application/json' },
    });

    const result = await handler(event, lambdaContext());

    expect(result.statusCode).toBe(200);
  });

  it('returns 415 for a non-JSON request body even on a route that takes none', async () => {
    const event = proxyEvent({
      method: 'GET',
      resource: '/auth/me',
      authorizer: toAuthorizerContext(principal),
      body: 'not json',
      headers: { 'Content-Type': 'text/plain' },
    });

    const result = await handler(event, lambdaContext());

    expect(result.statusCode).toBe(415);
    expect(JSON.parse(result.body)).toMatchObject({ status: 415, type: 'https://problems.backoffice.dev/unsupported-media-type' });
  });
});
