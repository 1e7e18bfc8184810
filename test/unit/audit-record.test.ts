import { describe, expect, it } from 'vitest';
import { withRequestOrigin } from '../../lib/audit/context';
import { auditRecord, changesOf, MAX_USER_AGENT } from '../../lib/audit/record';
import { settings } from '../../lib/settings';

/** How an audit record is made from what a service says and the request it happens in (lib/audit/record). */
const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const event = { scope: { tenantId: 't1' }, action: 'supplier.deleted', resource: { type: 'supplier', id: 's1' } } as const;

describe('auditRecord', () => {
  it('names the signed-in caller, the request and its address, and expires after the retention period', async () => {
    const actor = { type: 'user' as const, id: 'u1', name: 'Ana' };
    const record = await withRequestOrigin({ requestId: 'req-1', sourceIp: '203.0.113.9', userAgent: 'curl/8', actor }, () =>
      Promise.resolve(auditRecord(event, NOW)),
    );
    expect(record).toEqual({
      scope: { tenantId: 't1' },
      entry: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        occurredAt: '2026-11-24T12:00:00.000Z',
        actor,
        action: 'supplier.deleted',
        resource: { type: 'supplier', id: 's1' },
        requestId: 'req-1',
        sourceIp: '203.0.113.9',
        userAgent: 'curl/8',
        changes: null,
      },
      expiresAtEpoch: NOW / 1000 + settings.auditRetentionDays * 24 * 60 * 60,
      // supplier.deleted publishes its domain event with the entry (the outbox: lib/events).
      event: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'supplier.deleted',
        timestamp: '2026-11-24T12:00:00.000Z',
        data: { id: 's1', tenantId: 't1' },
      },
    });
  });

  it('publishes no event for an action without one, nor in the platform trail, and carries the fields a receiver routes on', () => {
    expect(auditRecord({ ...event, action: 'auth.logout', resource: { type: 'session', id: 's9' } }, NOW).event).toBeUndefined();
    expect(auditRecord({ ...event, scope: 'platform', action: 'tenant.created', resource: { type: 'tenant', id: 't1' } }, NOW).event).toBeUndefined();
    const movement = auditRecord(
      {
        scope: { tenantId: 't1' },
        action: 'movement.created',
        resource: { type: 'movement', id: 'm1' },
        eventFields: { productId: 'p1', warehouseId: 'w1', type: 'SALE' },
      },
      NOW,
    );
    expect(movement.event).toEqual({
      id: expect.any(String),
      type: 'stock_movement.created',
      timestamp: '2026-11-24T12:00:00.000Z',
      data: { productId: 'p1', warehouseId: 'w1', type: 'SALE', id: 'm1', tenantId: 't1' },
    });
    // The routing fields never override the resource and the tenant.
    const forged = auditRecord(
      { scope: { tenantId: 't1' }, action: 'movement.created', resource: { type: 'movement', id: 'm1' }, eventFields: { id: 'x', tenantId: 'other' } },
      NOW,
    );
    expect(forged.event?.data).toEqual({ id: 'm1', tenantId: 't1' });
  });

  it("is nobody's on a public request, the event's own actor when it names one, and the system's outside any request", async () => {
    const publicOrigin = { requestId: 'req-2', sourceIp: '198.51.100.1', userAgent: null };
    const anonymous = await withRequestOrigin(publicOrigin, () => Promise.resolve(auditRecord(event, NOW)));
    expect(anonymous.entry.actor).toEqual({ type: 'anonymous', id: null, name: null });
    const named = await withRequestOrigin(publicOrigin, () => Promise.resolve(auditRecord({ ...event, actor: { type: 'user', id: 'u2', name: 'Bia' } }, NOW)));
    expect(named.entry.actor).toEqual({ type: 'user', id: 'u2', name: 'Bia' });

    const outside = auditRecord(event, NOW);
    expect(outside.entry).toMatchObject({
      actor: { type: 'system', id: null, name: null },
      sourceIp: null,
      userAgent: null,
      requestId: expect.stringMatching(/^system-/),
    });
  });

  it('keeps the first 512 characters of a User-Agent', async () => {
    const long = 'x'.repeat(MAX_USER_AGENT + 100);
    const record = await withRequestOrigin({ requestId: 'r', sourceIp: '192.0.2.1', userAgent: long }, () => Promise.resolve(auditRecord(event, NOW)));
    expect(record.entry.userAgent).toBe('x'.repeat(MAX_USER_AGENT));
  });
});

describe('changesOf', () => {
  it('lists the fields whose value changed, as JSON, absent as null, in the order asked', () => {
    const before: { name: string; email: string | null; address: { city: string }; active: boolean } = {
      name: 'A',
      email: null,
      address: { city: 'Recife' },
      active: true,
    };
    const after = { name: 'B', email: 'a@b.example', address: { city: 'Recife' }, active: true };
    expect(changesOf(before, after, ['active', 'address', 'email', 'name'])).toEqual([
      { field: 'email', before: null, after: 'a@b.example' },
      { field: 'name', before: 'A', after: 'B' },
    ]);
    expect(changesOf(before, before, ['name', 'email'])).toEqual([]);
  });
});
