import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MAX_CURSOR_LENGTH, openCursor, sealCursor, type CursorScope } from '../../lib/domain/cursor';
import { ValidationError } from '../../lib/errors';

const secret = randomBytes(32);
const scope: CursorScope = { tenantId: 'tenant-a', filters: { productId: 'p-1', type: 'SALE', warehouseId: undefined } };
const position = { pk: 'TENANT#tenant-a#MOVES#P#p-1#T#SALE', sk: '2026-11-20T10:00:00.000Z#m-9' };

/** The error a refused cursor gets: a 400 naming `cursor`. */
function refusal(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('the cursor was accepted');
}

describe('page cursors', () => {
  it('give back the position they were sealed with, for the same tenant and filters in any order', () => {
    const cursor = sealCursor(position, scope, secret);
    expect(openCursor(cursor, scope, secret)).toEqual(position);
    expect(openCursor(cursor, { tenantId: 'tenant-a', filters: { type: 'SALE', productId: 'p-1' } }, secret)).toEqual(position);
    expect(cursor).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it.each([
    ['another tenant', { tenantId: 'tenant-b', filters: scope.filters }],
    ['other filters', { tenantId: 'tenant-a', filters: { productId: 'p-1', type: 'IN' } }],
    ['a filter dropped', { tenantId: 'tenant-a', filters: { productId: 'p-1' } }],
  ])('refuse a cursor used by %s', (_name, other) => {
    const cursor = sealCursor(position, scope, secret);
    expect(refusal(() => openCursor(cursor, other, secret)).errors).toEqual([
      { field: 'cursor', message: 'is not a cursor of this list: start again without it' },
    ]);
  });

  it('refuse a position edited by hand, a MAC of another secret, and anything that is not a cursor', () => {
    const cursor = sealCursor(position, scope, secret);
    const [, mac] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ v: 1, p: { ...position, sk: '2099-01-01T00:00:00.000Z#x' } })).toString('base64url')}.${mac}`;
    const otherSecret = sealCursor(position, scope, randomBytes(32));
    for (const bad of [forged, otherSecret, '', 'abc', 'a.b.c', `${cursor}x`, `${cursor}.`, 'ä.ö', 'x'.repeat(MAX_CURSOR_LENGTH + 1)]) {
      expect(refusal(() => openCursor(bad, scope, secret)).status, JSON.stringify(bad.slice(0, 20))).toBe(400);
    }
  });
});
