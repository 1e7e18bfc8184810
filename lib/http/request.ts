import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { parseCookie } from 'cookie';
import { config } from '../config';
import { ValidationError } from '../errors';

/** The header-carrying part of a proxy event or an authorizer REQUEST event. */
export interface HeaderSource {
  headers?: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
}

/*
 * Header and cookie names are the client's: `constructor`, `__proto__` or `toString` are
 * ordinary names here. Only own properties are read (Object.keys / Object.entries), never
 * `map[name]` for a name the client chose, and the maps built have no prototype.
 */

/** Case-insensitive header read over a proxy event (clients send any casing). */
export function header(event: HeaderSource, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted && typeof value === 'string') return value;
  }
  return undefined;
}

/** The credential of an `Authorization: Bearer <credential>` header (RFC 6750: the scheme in any case, one space); undefined for anything else. */
export function bearerToken(authorization: string): string | undefined {
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization);
  return match?.[1];
}

/** The request cookies; several Cookie headers are joined as browsers and proxies may split them. */
export function cookies(event: HeaderSource): Record<string, string> {
  const values: string[] = [];
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === 'cookie' && Array.isArray(list)) values.push(...list.filter((value) => typeof value === 'string'));
  }
  if (values.length === 0) {
    const single = header(event, 'cookie');
    if (single) values.push(single);
  }
  const parsed = parseCookie(values.join('; '));
  // No prototype: a cookie named `__proto__` is a cookie, and reading `accessToken` from a
  // jar without one is undefined, never an inherited member.
  const result = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(parsed)) if (value !== undefined) result[key] = value;
  return result;
}

/** An Idempotency-Key: 1 to 255 visible ASCII characters (no spaces, no controls). */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The request's Idempotency-Key, if it sent one; 400 for a malformed or repeated one. */
export function idempotencyKey(event: HeaderSource): string | undefined {
  const wanted = IDEMPOTENCY_KEY_HEADER.toLowerCase();
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === wanted && Array.isArray(list) && list.length > 1) throw ValidationError.of(IDEMPOTENCY_KEY_HEADER, 'given more than once');
  }
  const value = header(event, IDEMPOTENCY_KEY_HEADER);
  if (value === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(value)) throw ValidationError.of(IDEMPOTENCY_KEY_HEADER, 'must be 1 to 255 visible ASCII characters');
  return value;
}

/** The header CloudFront adds to every request it forwards to the API, holding EDGE_SECRET. */
export const EDGE_SECRET_HEADER = 'x-origin-verify';
/** The header the distribution's viewer-request function sets to the viewer's address, replacing any the viewer sent. */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';

const sameSecret = (presented: string, secret: string): boolean => {
  const a = Buffer.from(presented);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The caller's address, for the per-address rate limits and the audit trail. API Gateway's
 * `sourceIp`, except behind the stage's CloudFront distribution, where `sourceIp` is an edge
 * server's (every visitor of a city would share a handful): there the address is the one the
 * distribution's function wrote (VIEWER_ADDRESS_HEADER), trusted only on a request that
 * carries the distribution's secret (EDGE_SECRET_HEADER), which a caller going to API Gateway
 * directly cannot know. Never X-Forwarded-For, which any caller writes.
 */
export function clientIp(event: Pick<APIGatewayProxyEvent, 'requestContext'> & HeaderSource): string {
  const sourceIp = event.requestContext?.identity?.sourceIp ?? 'unknown';
  const secret = config().EDGE_SECRET;
  if (!secret) return sourceIp;
  const presented = header(event, EDGE_SECRET_HEADER);
  if (presented === undefined || !sameSecret(presented, secret)) return sourceIp;
  const viewer = header(event, VIEWER_ADDRESS_HEADER)?.trim();
  return viewer !== undefined && isIP(viewer) !== 0 ? viewer : sourceIp;
}
