import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { clientIp, EDGE_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from '../../lib/http/request';

/**
 * The caller's address behind the console's distribution: the viewer's, as the distribution's
 * function wrote it, only when the request proves it came through the distribution.
 */
const SECRET = 'a'.repeat(48);

const event = (headers: Record<string, string>, sourceIp = '130.176.0.10') =>
  ({ headers, requestContext: { identity: { sourceIp } } }) as unknown as Pick<APIGatewayProxyEvent, 'requestContext' | 'headers'>;

function withEdgeSecret(value: string | undefined): void {
  if (value === undefined) delete process.env.EDGE_SECRET;
  else process.env.EDGE_SECRET = value;
  resetConfig();
}

afterEach(() => withEdgeSecret(undefined));

describe('clientIp', () => {
  it("is API Gateway's sourceIp without a distribution, whatever headers the caller sends", () => {
    withEdgeSecret(undefined);
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '203.0.113.7', 'X-Forwarded-For': '198.51.100.1' }))).toBe('130.176.0.10');
  });

  it("is the viewer's address on a request that carries the distribution's secret", () => {
    withEdgeSecret(SECRET);
    expect(clientIp(event({ 'X-Origin-Verify': SECRET, 'X-Viewer-Address': '203.0.113.7' }))).toBe('203.0.113.7');
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: '2001:db8::7' }))).toBe('2001:db8::7');
  });

  it('is sourceIp for a caller that goes to API Gateway directly and names an address of its choosing', () => {
    withEdgeSecret(SECRET);
    expect(clientIp(event({ [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, '198.51.100.9'))).toBe('198.51.100.9');
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: 'guess', [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, '198.51.100.9'))).toBe('198.51.100.9');
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: `${SECRET}x`, [VIEWER_ADDRESS_HEADER]: '203.0.113.7' }, '198.51.100.9'))).toBe('198.51.100.9');
  });

  it('is sourceIp when the viewer address is missing or not an address', () => {
    withEdgeSecret(SECRET);
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: SECRET }))).toBe('130.176.0.10');
    expect(clientIp(event({ [EDGE_SECRET_HEADER]: SECRET, [VIEWER_ADDRESS_HEADER]: 'not-an-ip' }))).toBe('130.176.0.10');
  });
});
