import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalApi } from '../../tools/local-api';
import { invitationTokenFor } from './api';

describe('npm start persistence', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-persist-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps tenants, users and keys across a restart on the same DATA_DIR', async () => {
    const post = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const first = await startLocalApi({ dataDir, inMemory: false, allowedOrigins: 'https://app.example.com' });
    let tenantId: string;
    let accessCookie: string;
    try {
      const tenant = await post(first.url, '/tenants', { name: 'persisted-tenant', plan: 'STARTER', adminEmail: 'keeper@example.com' });
      tenantId = ((await tenant.json()) as { id: string }).id;
      const invitationToken = invitationTokenFor('keeper@example.com', dataDir);
      const registered = await post(first.url, '/auth/register', {
        name: 'Keeper',
        email: 'keeper@example.com',
        password: 'persist me please',
        tenantId,
        invitationToken,
      });
      expect(registered.status).toBe(200);
      accessCookie = registered.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    } finally {
      await first.stop();
    }

    const second = await startLocalApi({ dataDir, inMemory: false, allowedOrigins: 'https://app.example.com' });
    try {
      // The session and the signing keys survived: the old access token still works.
      const me = await fetch(`${second.url}/auth/me`, { headers: { cookie: accessCookie } });
      expect(me.status).toBe(200);
      expect(await me.json()).toEqual({ id: expect.any(String), name: 'Keeper', email: 'keeper@example.com', tenantId });
      const login = await post(second.url, '/auth/login', { email: 'keeper@example.com', password: 'persist me please' });
      expect(login.status).toBe(200);
      const duplicate = await post(second.url, '/tenants', { name: 'persisted-tenant', plan: 'STARTER' });
      expect(duplicate.status).toBe(409);
    } finally {
      await second.stop();
    }
    // Two starts of DynamoDB Local and the API: beyond the default 30 s on a loaded 2-core machine.
  }, 120_000);
});
