import { describe, expect, it } from 'vitest';
import { keys } from '../../lib/db/keys';
import { uuidToBase62 } from '../../lib/domain/base62';
import { belongsToTenant, excludedKind, exportedItem, isDeletionBookkeeping, itemKind, ndjsonLine } from '../../lib/tenant-jobs/ownership';

const TENANT = '6f1c2a0e-3b7d-4e5f-9a8b-1c2d3e4f5a6b';
const OTHER = '9b2e41c0-5d1a-4c7e-8f3b-2a6d9e0c4b71';
const USER = '1e2f3a4b-5c6d-4e7f-8a9b-0c1d2e3f4a5b';
const facts = { tenantId: TENANT, userIds: [USER] };

/** Which items of the table a tenant's deletion removes and its export holds (lib/tenant-jobs/ownership). */
describe("a tenant's items", () => {
  it.each([
    ['its profile', { ...keys.tenant(TENANT) }],
    ['a user session, under its own partitions', { ...keys.session(TENANT, USER, 'S1') }],
    ['its credentials', { ...keys.credentials(TENANT, USER) }],
    ["an endpoint's secrets", { ...keys.webhookSecrets(TENANT, 'E1') }],
    ['the sentinel of its name', { ...keys.tenantName('loja-da-ana'), tenantId: TENANT }],
    ["a user's e-mail sentinel", { ...keys.email('ana@example.com'), tenantId: TENANT, userId: USER }],
    ["a company's document sentinel", { ...keys.companyDocument('11222333000181'), tenantId: TENANT }],
    ['a second-factor challenge', { ...keys.mfaChallenge('h'), tenantId: TENANT, userId: USER }],
    ['its entry in the coverage job list', { ...keys.coverageTenant(TENANT) }],
    ["a user's rate-limit counter", { ...keys.counter('imports', USER, 0) }],
    ["an API key's rate-limit counter", { ...keys.counter('api-key', `${uuidToBase62(TENANT)}AbCdEf12`, 0) }],
  ])('include %s', (_name, item) => {
    expect(belongsToTenant(item, facts)).toBe(true);
  });

  it.each([
    ["another tenant's profile", { ...keys.tenant(OTHER) }],
    ["another tenant's partition that starts alike", { pk: `TENANT#${TENANT.slice(0, 30)}`, sk: 'PROFILE' }],
    ["another tenant's e-mail sentinel", { ...keys.email('bia@example.com'), tenantId: OTHER }],
    ["another tenant's coverage entry in the same shard", { pk: keys.coverageTenant(TENANT).pk, sk: OTHER }],
    ["an address's rate-limit counter", { ...keys.counter('sign-in-per-ip', '203.0.113.9', 0) }],
    ["the platform trail's entry about it", { ...keys.auditEntry('platform', '2026-01-01T00:00:00.000Z', 'E'), tenantId: TENANT, resourceId: TENANT }],
  ])('exclude %s', (_name, item) => {
    expect(belongsToTenant(item, facts)).toBe(false);
  });

  it("keeps the tenant's item and its schedule entry for the deletion's last transaction", () => {
    const due = '2026-02-01T00:00:00.000Z';
    expect(isDeletionBookkeeping({ ...keys.tenant(TENANT) }, TENANT, due)).toBe(true);
    expect(isDeletionBookkeeping({ ...keys.tenantDeletionDue(due, TENANT) }, TENANT, due)).toBe(true);
    expect(isDeletionBookkeeping({ ...keys.user(TENANT, USER) }, TENANT, due)).toBe(false);
  });
});

describe("a tenant's export", () => {
  it('leaves out secrets and operational records by item', () => {
    expect(excludedKind({ ...keys.credentials(TENANT, USER) })).toBe('credentials');
    expect(excludedKind({ ...keys.webhookSecrets(TENANT, 'E1') })).toBe('webhook-secrets');
    expect(excludedKind({ ...keys.passwordReset('h') })).toBe('password-resets');
    expect(excludedKind({ ...keys.mfaChallenge('h') })).toBe('mfa-challenges');
    expect(excludedKind({ ...keys.counter('imports', USER, 0) })).toBe('rate-limit-counters');
    expect(excludedKind({ ...keys.idempotency({ tenantId: TENANT, userId: USER }, 'h') })).toBe('idempotency-records');
    expect(excludedKind({ ...keys.user(TENANT, USER) })).toBeUndefined();
  });

  it('drops every attribute named as a hash or a secret, and says which', () => {
    expect(exportedItem({ pk: 'P', sk: 'S', name: 'PDV', secretHash: 'x', previousSecretHash: 'y', tokenHash: 'z' })).toEqual({
      item: { pk: 'P', sk: 'S', name: 'PDV' },
      dropped: ['secretHash', 'previousSecretHash', 'tokenHash'],
    });
  });

  it('writes one line of plain JSON, sets as arrays and binary as base64, and counts it by its type', () => {
    expect(ndjsonLine({ pk: 'P', tags: new Set(['a', 'b']), chunk: new Uint8Array([1, 2, 3]), n: 1.5 })).toBe(
      '{"pk":"P","tags":["a","b"],"chunk":"AQID","n":1.5}\n',
    );
    expect(itemKind({ pk: 'TENANT#x', type: 'Supplier' })).toBe('Supplier');
    expect(itemKind({ pk: 'COVERAGE_TENANTS#3', sk: TENANT })).toBe('COVERAGE_TENANTS');
  });
});
