import { createHmac, timingSafeEqual } from 'node:crypto';
import * as z from 'zod/mini';
import { ValidationError } from '../errors';
import { schema } from './schema';

/**
 * Opaque, tamper-evident page cursors (the stock history): where the next page
 * starts (a store position, e.g. DynamoDB's LastEvaluatedKey) sealed with HMAC-SHA256 over
 * the tenant and the list's filters. A cursor edited by hand, made for another tenant or
 * for other filters is refused as a 400 naming `cursor`, never followed. The position is
 * not secret, only bound: base64url JSON, then its MAC.
 *
 * Not wired to a route yet: the stock-history list and its signing secret come next.
 */

/** What a cursor is bound to: the caller's tenant and the list's filters (absent ones left out). */
export interface CursorScope {
  tenantId: string;
  filters: Record<string, string | undefined>;
}

/** Longer than any cursor this module writes: refused before any decoding. */
export const MAX_CURSOR_LENGTH = 1_024;

const CURSOR_REFUSED = 'is not a cursor of this list: start again without it';

const FORMAT_VERSION = 1;

const scopeText = ({ tenantId, filters }: CursorScope): string =>
  [
    tenantId,
    ...Object.keys(filters)
      .filter((name) => filters[name] !== undefined)
      .sort()
      .map((name) => `${name}=${filters[name]}`),
  ].join('\n');

const macOf = (secret: Uint8Array, scope: CursorScope, payload: string): Buffer =>
  createHmac('sha256', secret)
    .update(`${scopeText(scope)}\n${payload}`)
    .digest();

/** The cursor of the page after `position`, for this tenant and these filters. */
export function sealCursor(position: Record<string, string>, scope: CursorScope, secret: Uint8Array): string {
  const payload = Buffer.from(JSON.stringify({ v: FORMAT_VERSION, p: position })).toString('base64url');
  return `${payload}.${macOf(secret, scope, payload).toString('base64url')}`;
}

/** The one answer to a cursor this list did not seal (400 naming `cursor`). */
export const cursorRefused = (): ValidationError => ValidationError.of('cursor', CURSOR_REFUSED);

/** The `cursor` query parameter of a paged list: opaque text, refused past any length this module writes. */
export const cursorParam = /* @__PURE__ */ schema(() => z.optional(z.string().check(z.maxLength(MAX_CURSOR_LENGTH, CURSOR_REFUSED))));

/** The position a cursor names, if it was sealed for this tenant and these filters; else 400. */
export function openCursor(cursor: string, scope: CursorScope, secret: Uint8Array): Record<string, string> {
  if (cursor.length > MAX_CURSOR_LENGTH) throw cursorRefused();
  const [payload, mac, extra] = cursor.split('.');
  if (!payload || !mac || extra !== undefined || !/^[\w-]+$/.test(payload) || !/^[\w-]+$/.test(mac)) throw cursorRefused();
  const expected = macOf(secret, scope, payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw cursorRefused();
  // Sealed by us, so well-formed; checked anyway, as everything that comes from a client.
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { v?: unknown; p?: unknown };
  if (decoded.v !== FORMAT_VERSION || typeof decoded.p !== 'object' || decoded.p === null) throw cursorRefused();
  const position = decoded.p as Record<string, unknown>;
  if (!Object.values(position).every((value) => typeof value === 'string')) throw cursorRefused();
  return position as Record<string, string>;
}
