import { describe, expect, it } from 'vitest';
import { GATEWAY_PROBLEM_CONTENT_TYPE, gatewayProblem, gatewayResponses, type GatewayResponseType } from '../../lib/http/gateway-responses';

const REQUEST_ID = 'gw-request-1';
const base = 'https://problems.backoffice.dev/';

describe('gateway responses', () => {
  it('answers a denied authorizer with the same 401 problem as the functions', () => {
    expect(gatewayProblem('UNAUTHORIZED', REQUEST_ID)).toEqual({
      problem: { type: `${base}unauthorized`, title: 'Unauthorized', status: 401, detail: 'Authentication is required or has failed', requestId: REQUEST_ID },
      headers: {},
    });
    expect(GATEWAY_PROBLEM_CONTENT_TYPE).toBe('application/problem+json');
  });

  it.each<[GatewayResponseType, number]>([
    ['ACCESS_DENIED', 403],
    ['MISSING_AUTHENTICATION_TOKEN', 404],
    ['REQUEST_TOO_LARGE', 413],
    ['DEFAULT_4XX', 400],
  ])('answers %s with %i', (type, status) => {
    expect(gatewayProblem(type, REQUEST_ID).problem).toMatchObject({ status, requestId: REQUEST_ID });
  });

  it('answers a failing authorizer with a retryable 503', () => {
    expect(gatewayProblem('AUTHORIZER_FAILURE', REQUEST_ID)).toMatchObject({
      problem: { status: 503, type: `${base}unavailable` },
      headers: { 'Retry-After': '1' },
    });
  });

  it('answers throttling with 429 and Retry-After', () => {
    expect(gatewayProblem('THROTTLED', REQUEST_ID)).toMatchObject({ problem: { status: 429, type: `${base}rate-limited` }, headers: { 'Retry-After': '1' } });
  });

  it('answers a crashed integration with a bare 500 that carries no internals', () => {
    expect(gatewayProblem('INTEGRATION_FAILURE', REQUEST_ID)).toEqual({
      problem: { type: `${base}internal`, title: 'Internal server error', status: 500, detail: 'An unexpected error occurred', requestId: REQUEST_ID },
      headers: {},
    });
  });

  it('defines each response type once', () => {
    const types = gatewayResponses.map((response) => response.type);

    expect(new Set(types).size).toBe(types.length);
  });

  it('throws for a type it does not define', () => {
    expect(() => gatewayProblem('NO_SUCH_TYPE' as GatewayResponseType, REQUEST_ID)).toThrow('Unknown gateway response NO_SUCH_TYPE');
  });
});
