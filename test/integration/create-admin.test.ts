import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { call, cookiesFrom, newTenantWithAdmin, uniqueEmail } from './api';

const run = promisify(execFile);

/** `npm run create-admin` against the running local API's store (as while `npm start` runs). */
async function createAdmin(...args: string[]): Promise<string> {
  const { stdout } = await run(join('node_modules', '.bin', 'tsx'), ['scripts/create-admin.ts', ...args], {
    env: { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1' },
  });
  return stdout;
}

describe('npm run create-admin', () => {
  it('creates a platform administrator who can list every tenant', async () => {
    const tenant = await newTenantWithAdmin();
    const email = uniqueEmail('root');
    const output = await createAdmin('--email', email, '--password', 'admin password 1', '--name', 'Root');
    expect(output).toMatch(/Created platform administrator/);

    const login = await call('POST', '/auth/login', { body: { email, password: 'admin password 1' } });
    expect(login.status).toBe(200);
    const response = await call<Record<string, unknown>[]>('GET', '/tenants', { cookies: cookiesFrom(login) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(
      expect.arrayContaining([
        { id: tenant.tenantId, name: expect.any(String), brandName: null, document: null, address: null, phone: null, logoUrl: null, plan: 'STARTER' },
      ]),
    );
    const names = response.body.map((item) => item.name as string);
    expect(names).toEqual([...names].sort());
  });

  it('promotes an existing user, who may then update any tenant', async () => {
    const user = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    expect((await call('GET', '/tenants', { cookies: user.cookies })).status).toBe(403);

    const output = await createAdmin('--email', user.email, '--password', 'ignored password');
    expect(output).toMatch(/Promoted/);

    const login = await call('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    const cookies = cookiesFrom(login);
    expect((await call('GET', '/tenants', { cookies })).status).toBe(200);
    const patched = await call('PATCH', `/tenants/${other.tenantId}`, { cookies, body: { brandName: 'Set by the platform' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual(expect.objectContaining({ id: other.tenantId, brandName: 'Set by the platform' }));
  });

  it('refuses bad arguments with exit code 2 and a usage line', async () => {
    await expect(createAdmin('--email', 'not-an-email', '--password', 'x')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('usage: npm run create-admin'),
    });
  });
});
