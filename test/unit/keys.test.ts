import { describe, expect, it } from 'vitest';
import { gsi1, keys } from '../../lib/db/keys';

const TENANT = '6f1c1f0e-3f5a-4b8e-9a52-0c3f9d2b7a10';
const USER = 'a3d2c4b1-8e7f-4a6b-9c5d-1e2f3a4b5c6d';
const SESSION = '0b9e8d7c-6f5a-4e3d-8c2b-1a0f9e8d7c6b';
const JTI = 'f0e1d2c3-b4a5-4968-8776-655443322110';

describe('key builders', () => {
  it('builds the tenant profile key', () => {
    expect(keys.tenant(TENANT)).toEqual({ pk: `TENANT#${TENANT}`, sk: 'PROFILE' });
  });

  it('builds the user key under its tenant', () => {
    expect(keys.user(TENANT, USER)).toEqual({ pk: `TENANT#${TENANT}`, sk: `USER#${USER}` });
  });

  it('builds the session key under its user and tenant', () => {
    expect(keys.session(TENANT, USER, SESSION)).toEqual({ pk: `TENANT#${TENANT}#USER#${USER}`, sk: `SESSION#${SESSION}` });
  });

  it("builds the query prefix of a user's sessions", () => {
    expect(keys.sessionsOfUser(TENANT, USER)).toEqual({ pk: `TENANT#${TENANT}#USER#${USER}`, skPrefix: 'SESSION#' });
  });

  it('builds the blacklist key of a revoked access token', () => {
    expect(keys.revokedJti(TENANT, USER, JTI)).toEqual({ pk: `TENANT#${TENANT}#USER#${USER}`, sk: `REVOKED_JTI#${JTI}` });
  });

  it('builds the invitation key under its tenant', () => {
    expect(keys.invitation(TENANT, 'ana@example.com')).toEqual({ pk: `TENANT#${TENANT}`, sk: 'INVITATION#ana@example.com' });
  });

  it('starts every tenant-owned key with TENANT#<id>', () => {
    const tenantOwned = [
      keys.tenant(TENANT),
      keys.user(TENANT, USER),
      keys.session(TENANT, USER, SESSION),
      keys.sessionsOfUser(TENANT, USER),
      keys.revokedJti(TENANT, USER, JTI),
      keys.invitation(TENANT, 'ana@example.com'),
    ];

    for (const key of tenantOwned) expect(key.pk.startsWith(`TENANT#${TENANT}`)).toBe(true);
  });

  it('keeps the two tenants of one user id apart', () => {
    const other = '11111111-2222-4333-8444-555555555555';

    expect(keys.session(TENANT, USER, SESSION).pk).not.toBe(keys.session(other, USER, SESSION).pk);
    expect(keys.user(TENANT, USER).pk).not.toBe(keys.user(other, USER).pk);
  });

  it('builds the global uniqueness sentinels outside any tenant', () => {
    expect(keys.email('ana@example.com')).toEqual({ pk: 'EMAIL#ana@example.com', sk: 'UNIQUE' });
    expect(keys.tenantName('acme')).toEqual({ pk: 'TENANT_NAME#acme', sk: 'UNIQUE' });
  });

  it('builds the platform-wide tenant listing entries of gsi1, one shard per first character', () => {
    expect(gsi1.tenantsByName('acme')).toEqual({ gsi1pk: 'TENANTS#a', gsi1sk: 'acme' });
    expect(gsi1.tenantsByName('9-lojas')).toEqual({ gsi1pk: 'TENANTS#9', gsi1sk: '9-lojas' });
    expect(gsi1.tenantShard('a')).toEqual({ gsi1pk: 'TENANTS#a' });
  });
});
