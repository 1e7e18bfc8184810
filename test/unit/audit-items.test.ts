import { describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../lib/audit/model';
import { auditItems, auditItemsUndone, originExpiresAtEpoch } from '../../lib/audit/repository';
import { settings } from '../../lib/settings';

/** What a change's transaction gets for its entry (lib/audit/repository `auditItems`): the copies without the origin, the origin once. */
const OCCURRED_AT = '2026-11-24T12:00:00.000Z';
const OCCURRED_EPOCH = Date.parse(OCCURRED_AT) / 1000;
const DAY = 24 * 60 * 60;
const ENTRY_ID = '6f1c7d1e-3a59-4d0e-9f57-0c5cc1a9e001';

const record = (origin: { sourceIp: string | null; userAgent: string | null }, scope: AuditRecord['scope'] = { tenantId: 't1' }): AuditRecord => ({
  scope,
  entry: {
    id: ENTRY_ID,
    occurredAt: OCCURRED_AT,
    actor: { type: 'user', id: 'u1', name: 'Ana' },
    action: 'supplier.updated',
    resource: { type: 'supplier', id: 's1' },
    requestId: 'req-1',
    ...origin,
    changes: [{ field: 'name', before: 'A', after: 'B' }],
  },
  expiresAtEpoch: OCCURRED_EPOCH + settings.auditRetentionDays * DAY,
});

const itemsOf = (items: ReturnType<typeof auditItems>) => items.map((item) => item.Put?.Item ?? {});

describe('auditItems', () => {
  it('puts the entry in its three lists without its origin, and the origin once, expiring after the access records period', () => {
    const items = itemsOf(auditItems(record({ sourceIp: '203.0.113.9', userAgent: 'curl/8' })));

    expect(items.map((item) => [item.pk, item.type])).toEqual([
      ['TENANT#t1#AUDIT', 'AuditEntry'],
      ['TENANT#t1#AUDIT#ACTOR#u1', 'AuditEntry'],
      ['TENANT#t1#AUDIT#RESOURCE#s1', 'AuditEntry'],
      ['TENANT#t1#AUDIT#ORIGIN', 'AuditOrigin'],
    ]);
    for (const copy of items.slice(0, 3)) {
      expect(copy).not.toHaveProperty('sourceIp');
      expect(copy).not.toHaveProperty('userAgent');
      expect(copy.ttl).toBe(OCCURRED_EPOCH + 400 * DAY);
    }
    expect(items.filter((item) => item.type === 'AuditOrigin')).toEqual([
      {
        pk: 'TENANT#t1#AUDIT#ORIGIN',
        sk: `${OCCURRED_AT}#${ENTRY_ID}`,
        type: 'AuditOrigin',
        sourceIp: '203.0.113.9',
        userAgent: 'curl/8',
        ttl: OCCURRED_EPOCH + 183 * DAY,
      },
    ]);
  });

  it('keeps the platform trail the same way, and writes no origin for an entry that has none (a job, a script)', () => {
    const platform = itemsOf(auditItems(record({ sourceIp: '198.51.100.1', userAgent: null }, 'platform')));
    expect(platform.at(-1)).toEqual({
      pk: 'PLATFORM#AUDIT#ORIGIN',
      sk: `${OCCURRED_AT}#${ENTRY_ID}`,
      type: 'AuditOrigin',
      sourceIp: '198.51.100.1',
      userAgent: null,
      ttl: OCCURRED_EPOCH + 183 * DAY,
    });

    const system = itemsOf(auditItems(record({ sourceIp: null, userAgent: null })));
    expect(system.map((item) => item.type)).toEqual(['AuditEntry', 'AuditEntry', 'AuditEntry']);
  });

  it('never keeps the origin past the entry itself', () => {
    const short = { ...record({ sourceIp: '203.0.113.9', userAgent: null }), expiresAtEpoch: OCCURRED_EPOCH + 30 * DAY };
    expect(originExpiresAtEpoch(short)).toBe(OCCURRED_EPOCH + 30 * DAY);
    expect(itemsOf(auditItems(short)).at(-1)?.ttl).toBe(OCCURRED_EPOCH + 30 * DAY);
  });

  it('takes the origin back with the entry', () => {
    expect(auditItemsUndone(record({ sourceIp: '203.0.113.9', userAgent: 'curl/8' })).map((item) => item.Delete?.Key)).toEqual([
      { pk: 'TENANT#t1#AUDIT', sk: `${OCCURRED_AT}#${ENTRY_ID}` },
      { pk: 'TENANT#t1#AUDIT#ACTOR#u1', sk: `${OCCURRED_AT}#${ENTRY_ID}` },
      { pk: 'TENANT#t1#AUDIT#RESOURCE#s1', sk: `${OCCURRED_AT}#${ENTRY_ID}` },
      { pk: 'TENANT#t1#AUDIT#ORIGIN', sk: `${OCCURRED_AT}#${ENTRY_ID}` },
    ]);
  });
});
