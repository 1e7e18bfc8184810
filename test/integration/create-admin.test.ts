import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  allPages,
  call,
  cookiesFrom,
  invitationTokenFor,
  login,
  newTenantWithAdmin,
  nextLink,
  problem,
  secondFactorFrom,
  signInWithSecondFactor,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
} from './api';
import { auditRecord } from '../../lib/audit/record';
import { resetConfig } from '../../lib/config';
import { findTenantIdByName, getTenant, insertTenant, type Tenant } from '../../lib/tenants/repository';
import { findUserByEmail } from '../../lib/auth/users-repository';
import { getCredentials } from '../../lib/auth/credentials-repository';
import { RESERVED_TENANT_NAMES } from '../../lib/tenants/schemas';
import { ensureTable, localDynamoClient } from '../../local/dynamodb-local';
import { readRuntimeInfo } from '../../local/runtime';

interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run create-admin` against the running local API's store (as while `npm start` runs).
 * `password` goes into ADMIN_PASSWORD; `stdin` is written to the command's stdin, which is
 * closed either way (so the command never waits for it). `env` adds variables.
 */
async function createAdmin(args: string[], options: { password?: string; stdin?: string; env?: Record<string, string> } = {}): Promise<CommandResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1', ...options.env };
  delete env.ADMIN_PASSWORD;
  if (options.password !== undefined) env.ADMIN_PASSWORD = options.password;
  const child = spawn(join('node_modules', '.bin', 'tsx'), ['scripts/create-admin.ts', ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(options.stdin ?? '');
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, stdout, stderr };
}

const USAGE = expect.stringContaining('usage: npm run create-admin -- --email E');

/** What a successful run prints on stderr: the one line naming its store. */
const STORE_LINE = expect.stringMatching(/^Store: the running API's store \(DynamoDB Local at http:\/\/127\.0\.0\.1:\d+, API http:\/\/127\.0\.0\.1:\d+\)\.\n$/);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The whole stdout of a successful run: `firstLine` (text, or a pattern of it), then the
 * second factor it enrolled for `email`: its otpauth URI, the same secret as text,
 * and 10 recovery codes.
 */
function printed(firstLine: string | RegExp, email: string) {
  const first = typeof firstLine === 'string' ? escape(firstLine) : firstLine.source;
  return expect.stringMatching(
    new RegExp(
      `^${first}\n` +
        'Its second factor is on: signing in takes the password, then a code \\(POST /auth/mfa/verify\\)\\.\n' +
        'Add it to an authenticator app \\(scan a QR code of this URI, or type the secret\\):\n' +
        `  otpauth URI: otpauth://totp/Backoffice:${escape(encodeURIComponent(email))}\\?issuer=Backoffice&secret=(?<secret>[A-Z2-7]{32})&algorithm=SHA1&digits=6&period=30\n` +
        '  secret: \\k<secret>\n' +
        'Recovery codes \\(each works once in place of a code; keep them offline\\):\n' +
        '(  [0-9a-z]{5}-[0-9a-z]{5}\n){10}$',
    ),
  );
}

/** A platform administrator for the checks below (created once). */
let platform: { email: string; password: string; cookies: Record<string, string> };

beforeAll(async () => {
  const email = uniqueEmail('root');
  const password = 'platform password 1';
  const result = await createAdmin(['--email', email], { password });
  if (result.code !== 0) throw new Error(`create-admin failed: ${result.stderr}`);
  const signedIn = await signInWithSecondFactor(email, password, secondFactorFrom(result.stdout).secret);
  if (signedIn.response.status !== 200) throw new Error(`platform sign-in failed: ${JSON.stringify(signedIn.response.body)}`);
  platform = { email, password, cookies: signedIn.cookies };
});

describe('npm run create-admin', () => {
  it('creates a platform administrator (password in ADMIN_PASSWORD) who can list every tenant', async () => {
    const tenant = await newTenantWithAdmin();
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email, '--name', 'Root'], { password: 'admin password 1' });
    expect(result).toEqual({
      code: 0,
      stdout: printed(/Created platform administrator .* in (the new )?platform tenant 'platform' \(.*\)\./, email),
      stderr: STORE_LINE,
    });

    const signedIn = await signInWithSecondFactor(email, 'admin password 1', secondFactorFrom(result.stdout).secret);
    expect(signedIn.response.status).toBe(200);
    // Every page (other test files' tenants share the store), following each Link.
    const response = { body: (await allPages<Record<string, unknown>>('/tenants', signedIn.cookies)).items };
    expect(response.body).toEqual(
      expect.arrayContaining([
        {
          id: tenant.tenantId,
          name: expect.any(String),
          brandName: null,
          document: null,
          address: null,
          phone: null,
          logoUrl: null,
          plan: 'STARTER',
          mfaPolicy: 'OFF',
          stockLowThresholdDays: null,
        },
      ]),
    );
    const names = response.body.map((item) => item.name as string);
    expect(names).toEqual([...names].sort());
  });

  it('pages GET /tenants by name across its shards: every tenant once, in order, whatever the page size', async () => {
    for (const name of ['0-first', 'zz-last', 'm-middle'])
      await call('POST', '/tenants', { body: { name: `${name}-${randomUUID().slice(0, 6)}`, plan: 'STARTER' } });
    const whole = await allPages<{ id: string; name: string }>('/tenants', platform.cookies);
    const names = whole.items.map((tenant) => tenant.name);
    expect(names).toEqual([...names].sort());
    expect(new Set(whole.items.map((tenant) => tenant.id)).size).toBe(whole.items.length);
    for (const limit of [1, 3, 7]) {
      const paged = await allPages<{ id: string; name: string }>(`/tenants?limit=${limit}`, platform.cookies);
      // Other test files sign tenants up meanwhile, anywhere in the order, and close and delete
      // others: every tenant of both reads comes once and in the same order, and whatever else
      // came is in order too.
      const known = new Set(whole.items.map((tenant) => tenant.id));
      const stillThere = new Set(paged.items.map((tenant) => tenant.id));
      // By id: a tenant closed meanwhile reads with its status.
      expect(
        paged.items.filter((tenant) => known.has(tenant.id)).map((tenant) => tenant.id),
        `limit ${limit}`,
      ).toEqual(whole.items.filter((tenant) => stillThere.has(tenant.id)).map((tenant) => tenant.id));
      expect(new Set(paged.items.map((tenant) => tenant.id)).size, `limit ${limit}`).toBe(paged.items.length);
      const pagedNames = paged.items.map((tenant) => tenant.name);
      expect(pagedNames, `limit ${limit}`).toEqual([...pagedNames].sort());
      expect(paged.pages, `limit ${limit}`).toBe(Math.ceil(paged.items.length / limit));
    }
    const first = await call<unknown[]>('GET', '/tenants?limit=2', { cookies: platform.cookies });
    expect(first.body).toHaveLength(2);
    expect(first.headers.get('link')).toMatch(/^<\/tenants\?limit=2&cursor=[\w.-]+>; rel="next"$/);
    expect(nextLink(first)).toMatch(/^\/tenants\?limit=2&cursor=/);
  });

  it('reads the password from the first line of stdin when ADMIN_PASSWORD is not set', async () => {
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email], { stdin: 'piped password 1\nsecond line\n' });
    expect(result).toEqual({ code: 0, stdout: printed(/Created platform administrator .*/, email), stderr: STORE_LINE });

    expect((await login(email, 'piped password 1\nsecond line')).response.status).toBe(401);
    const signedIn = await signInWithSecondFactor(email, 'piped password 1', secondFactorFrom(result.stdout).secret);
    expect(signedIn.response.status).toBe(200);
    expect((await call('GET', '/tenants', { cookies: signedIn.cookies })).status).toBe(200);
  });

  it.each([['--password', 'a password'], ['--password=a password']])(
    'refuses %s with exit code 2, naming ADMIN_PASSWORD, and creates nothing',
    async (...flag) => {
      const email = uniqueEmail('root');
      const result = await createAdmin(['--email', email, ...flag], { password: 'admin password 1' });
      expect(result).toEqual({
        code: 2,
        stdout: '',
        stderr: expect.stringContaining('--password is not accepted'),
      });
      expect(result.stderr).toContain('ADMIN_PASSWORD=… npm run create-admin -- --email E');
      expect((await login(email, 'admin password 1')).response.status).toBe(401);
      expect((await login(email, 'a password')).response.status).toBe(401);
    },
  );

  it('refuses bad arguments with exit code 2 and a usage line', async () => {
    expect(await createAdmin(['--email', 'not-an-email'], { password: 'admin password 1' })).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('--email: '),
    });
    expect(await createAdmin(['--email', uniqueEmail(), '--unknown'], { password: 'admin password 1' })).toEqual({ code: 2, stdout: '', stderr: USAGE });
  });

  it('holds the password to the password rules (8 to 128 characters), and refuses none at all', async () => {
    const email = uniqueEmail('root');
    expect(await createAdmin(['--email', email], { password: 'short' })).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('password: must be at least 8 characters'),
    });
    expect(await createAdmin(['--email', email], { password: 'x'.repeat(129) })).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('password: must be at most 128 characters'),
    });
    expect(await createAdmin(['--email', email])).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('No password: set ADMIN_PASSWORD') });
    // Nothing was stored: the e-mail is still free.
    expect(await createAdmin(['--email', email], { password: 'x'.repeat(128) })).toEqual({
      code: 0,
      stdout: printed(/Created platform administrator .*/, email),
      stderr: STORE_LINE,
    });
  });
});

describe('the second factor it enrols', () => {
  beforeAll(useLocalStoreInProcess);

  it('prints the otpauth URI, the same secret as base32 text, and 10 distinct recovery codes', async () => {
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email], { password: 'admin password 1' });
    expect(result.code, result.stderr).toBe(0);
    const factor = secondFactorFrom(result.stdout);
    expect(factor.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(factor.otpauthUri).toBe(
      `otpauth://totp/Backoffice:${encodeURIComponent(email)}?issuer=Backoffice&secret=${factor.secret}&algorithm=SHA1&digits=6&period=30`,
    );
    expect(factor.recoveryCodes).toHaveLength(10);
    expect(new Set(factor.recoveryCodes).size).toBe(10);
    for (const code of factor.recoveryCodes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    // Each of them signs in: a code of the secret, and a recovery code.
    expect((await signInWithSecondFactor(email, 'admin password 1', factor.secret)).response.status).toBe(200);
    expect((await signInWithSecondFactor(email, 'admin password 1', factor.secret, { recoveryCode: factor.recoveryCodes[0] })).response.status).toBe(200);
  });

  it('makes the password alone not enough: the login answers mfaRequired and sets no session cookie', async () => {
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email], { password: 'admin password 1' });
    expect(result.code, result.stderr).toBe(0);
    const { response, cookies } = await login(email, 'admin password 1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ mfaRequired: true });
    expect(cookies.mfaChallenge).toMatch(/^[\w-]{43}$/);
    expect(cookies).not.toHaveProperty('accessToken');
    expect(cookies).not.toHaveProperty('refreshToken');
    const me = await call('GET', '/auth/me', { cookies });
    expect(me.status).toBe(401);
    expect((await call('GET', '/tenants', { cookies })).status).toBe(401);
  });

  it('cannot be turned off by the administrator (403), even with a valid recovery code, and stays on', async () => {
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email], { password: 'admin password 1' });
    expect(result.code, result.stderr).toBe(0);
    const factor = secondFactorFrom(result.stdout);
    const signedIn = await signInWithSecondFactor(email, 'admin password 1', factor.secret);
    expect(signedIn.response.status).toBe(200);

    const refused = await call('DELETE', '/auth/mfa/totp', { cookies: signedIn.cookies, body: { recoveryCode: factor.recoveryCodes[0] } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(problem(403, 'forbidden'));
    // Still signed in, and the password alone still opens only a challenge.
    expect((await call('GET', '/auth/me', { cookies: signedIn.cookies })).status).toBe(200);
    const again = await login(email, 'admin password 1');
    expect(again.response.status).toBe(200);
    expect(again.response.body).toEqual({ mfaRequired: true });
    expect(again.cookies).not.toHaveProperty('accessToken');
    // The refusal spent nothing: the same recovery code still completes a sign-in.
    expect((await signInWithSecondFactor(email, 'admin password 1', factor.secret, { recoveryCode: factor.recoveryCodes[0] })).response.status).toBe(200);
    const stays = await findUserByEmail(email);
    expect(stays).toEqual(expect.objectContaining({ platformAdmin: true, totpEnabledAt: expect.any(String) }));
    expect(await getCredentials(stays ?? { tenantId: '', id: '' })).toEqual(expect.objectContaining({ totpSecret: factor.secret }));
  });
});

describe('promoting an existing account', () => {
  it('is refused without --promote, naming it, and leaves the account as it was', async () => {
    const user = await newTenantWithAdmin();
    const result = await createAdmin(['--email', user.email], { password: 'squatted password' });
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining('run the command again with --promote') });

    expect((await call('GET', '/auth/me', { cookies: user.cookies })).status).toBe(200);
    expect((await login(user.email, 'squatted password')).response.status).toBe(401);
    const signedIn = await login(user.email, user.password);
    expect(signedIn.response.status).toBe(200);
    const tenants = await call('GET', '/tenants', { cookies: signedIn.cookies });
    expect(tenants.status).toBe(403);
    expect(tenants.body).toEqual(problem(403, 'forbidden'));
  });

  it('with --promote sets the given password and ends every session of the account', async () => {
    const user = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const second = await login(user.email, user.password);
    expect((await call('GET', '/tenants', { cookies: user.cookies })).status).toBe(403);

    const result = await createAdmin(['--email', user.email, '--promote'], { password: 'the real admin password' });
    expect(result).toEqual({
      code: 0,
      stdout: printed(
        `Promoted ${user.email} (tenant ${user.tenantId}) to platform administrator: its password was replaced and 2 session(s) ended.`,
        user.email,
      ),
      stderr: STORE_LINE,
    });

    for (const cookies of [user.cookies, second.cookies]) {
      const me = await call('GET', '/auth/me', { cookies });
      expect(me.status).toBe(401);
      expect(me.body).toEqual(problem(401, 'unauthorized'));
      expect((await call('POST', '/auth/refresh', { cookies })).status).toBe(401);
    }
    expect((await login(user.email, user.password)).response.status).toBe(401);
    const signedIn = await signInWithSecondFactor(user.email, 'the real admin password', secondFactorFrom(result.stdout).secret);
    expect(signedIn.response.status).toBe(200);
    const cookies = cookiesFrom(signedIn.response);
    expect((await call('GET', '/tenants', { cookies })).status).toBe(200);
    const patched = await call('PATCH', `/tenants/${other.tenantId}`, { cookies, body: { brandName: 'Set by the platform' } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual(expect.objectContaining({ id: other.tenantId, brandName: 'Set by the platform' }));
  });
});

describe('the platform tenant', () => {
  it.each(RESERVED_TENANT_NAMES.map((name) => [name]))('is out of reach of POST /tenants: %s is reserved (409, nothing stored)', async (name) => {
    const brandName = `Squatter ${randomUUID()}`;
    const response = await call('POST', '/tenants', { body: { name, plan: 'STARTER', brandName } });
    expect(response.status).toBe(409);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(409, 'conflict', { detail: `The tenant name '${name}' is reserved` }));

    const tenants = await call<{ brandName: string | null }[]>('GET', '/tenants', { cookies: platform.cookies });
    expect(tenants.status).toBe(200);
    expect(tenants.body.filter((tenant) => tenant.brandName === brandName)).toEqual([]);
  });

  it('refuses a --tenant that was signed up through POST /tenants: its owner gets no platform administrator', async () => {
    const name = uniqueName('squat');
    const squatter = uniqueEmail('squatter');
    const signedUp = await call<{ id: string }>('POST', '/tenants', { body: { name, plan: 'ENTERPRISE', adminEmail: squatter } });
    expect(signedUp.status).toBe(201);
    const registered = await call('POST', '/auth/register', {
      body: { name: 'Squatter', email: squatter, password: 'squatter password', tenantId: signedUp.body.id, invitationToken: invitationTokenFor(squatter) },
    });
    expect(registered.status).toBe(200);

    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email, '--tenant', name], { password: 'admin password 1' });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(`The tenant '${name}' (${signedUp.body.id}) was not created by create-admin`),
    });

    expect((await login(email, 'admin password 1')).response.status).toBe(401);
    expect((await call('GET', '/tenants', { cookies: cookiesFrom(registered) })).status).toBe(403);
  });

  describe('in a store of its own', () => {
    const tables: string[] = [];
    let endpoint: string;

    beforeAll(async () => {
      await useLocalStoreInProcess();
      const runtime = readRuntimeInfo(inject('dataDir'));
      if (!runtime) throw new Error('the local API is not running');
      endpoint = runtime.dynamoEndpoint;
    });

    afterAll(async () => {
      const client = localDynamoClient(endpoint);
      for (const table of tables) await client.send(new DeleteTableCommand({ TableName: table }));
      client.destroy();
    });

    /** Run `body` with this process's repositories on a new, empty table. */
    async function withTable<T>(body: (table: string) => Promise<T>): Promise<T> {
      const table = `platform-test-${randomUUID().slice(0, 8)}`;
      await ensureTable(endpoint, table);
      tables.push(table);
      const previous = process.env.TABLE_NAME;
      process.env.TABLE_NAME = table;
      resetConfig();
      try {
        return await body(table);
      } finally {
        process.env.TABLE_NAME = previous;
        resetConfig();
      }
    }

    it("refuses a tenant named 'platform' that someone signed up before the name was reserved", async () => {
      await withTable(async (table) => {
        // What POST /tenants wrote for `platform` before the name was reserved.
        const squatted: Tenant = {
          id: randomUUID(),
          name: 'platform',
          brandName: 'Not the platform',
          document: null,
          address: null,
          phone: null,
          logoUrl: null,
          plan: 'STARTER',
          adminEmail: null,
          status: 'ACTIVE',
          mfaPolicy: 'OFF',
          baseAccountUserId: null,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        };
        await insertTenant(squatted, auditRecord({ scope: 'platform', action: 'tenant.created', resource: { type: 'tenant', id: squatted.id } }, Date.now()));

        const email = uniqueEmail('root');
        const result = await createAdmin(['--email', email], { password: 'admin password 1', env: { TABLE_NAME: table } });
        expect(result).toEqual({
          code: 1,
          stdout: '',
          stderr: expect.stringContaining(`The tenant 'platform' (${squatted.id}) was not created by create-admin`),
        });
        expect(await findUserByEmail(email)).toBeUndefined();
        expect(await getTenant(squatted.id)).toEqual(squatted);
      });
    });

    it("creates the tenant 'platform' marked as the platform's, and puts later administrators into it", async () => {
      await withTable(async (table) => {
        const first = uniqueEmail('root');
        const second = uniqueEmail('root');
        const created = await createAdmin(['--email', first], { password: 'admin password 1', env: { TABLE_NAME: table } });
        expect(created).toEqual({
          code: 0,
          stdout: printed(/Created platform administrator .* in the new platform tenant 'platform' \(.*\)\./, first),
          stderr: STORE_LINE,
        });
        const joined = await createAdmin(['--email', second], { password: 'admin password 2', env: { TABLE_NAME: table } });
        expect(joined).toEqual({
          code: 0,
          stdout: printed(/Created platform administrator .* in platform tenant 'platform' \(.*\)\./, second),
          stderr: STORE_LINE,
        });

        const tenantId = await findTenantIdByName('platform');
        const firstUser = await findUserByEmail(first);
        expect(await getTenant(tenantId ?? '')).toEqual({
          id: tenantId,
          name: 'platform',
          brandName: null,
          document: null,
          address: null,
          phone: null,
          logoUrl: null,
          plan: 'ENTERPRISE',
          mfaPolicy: 'OFF',
          adminEmail: first,
          status: 'ACTIVE',
          baseAccountUserId: firstUser?.id,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          platform: true,
        });
        for (const email of [first, second]) {
          expect(await findUserByEmail(email)).toEqual(expect.objectContaining({ email, tenantId, role: 'ADMIN', platformAdmin: true }));
        }
      });
    });
  });
});

describe('the store it writes to', () => {
  const folders: string[] = [];
  const emptyDataDir = () => {
    const folder = mkdtempSync(join(tmpdir(), 'backoffice-other-data-'));
    folders.push(folder);
    return folder;
  };
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it("names the running API's store when npm start runs on its DATA_DIR", async () => {
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email], { password: 'admin password 1' });
    expect(result.code, result.stderr).toBe(0);
    const runtime = readRuntimeInfo(inject('dataDir'));
    expect(result.stderr).toBe(`Store: the running API's store (DynamoDB Local at ${runtime?.dynamoEndpoint}, API ${runtime?.apiUrl}).\n`);
  });

  it('refuses with exit code 1 when no npm start runs on its DATA_DIR, before asking for a password, and starts nothing', async () => {
    const other = emptyDataDir();
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email], { env: { DATA_DIR: other } });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining(`No npm start is running on DATA_DIR=${other}: nothing would read what this command writes`),
    });
    expect(result.stderr).toContain('add --private-store to write into');
    expect(readdirSync(other)).toEqual([]);
    expect((await login(email, 'admin password 1')).response.status).toBe(401);
  });

  it('removes a stale runtime.json (its process is gone) and refuses as when there is none', async () => {
    const other = emptyDataDir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(other, 'runtime.json'), JSON.stringify({ pid: gone, dynamoEndpoint: 'http://127.0.0.1:9', apiUrl: 'http://127.0.0.1:9' }));
    const result = await createAdmin(['--email', uniqueEmail('root')], { password: 'admin password 1', env: { DATA_DIR: other } });
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringContaining(`No npm start is running on DATA_DIR=${other}`) });
    expect(result.stderr).toContain(`Removed a stale ${join(other, 'runtime.json')} (process ${gone} is not running).`);
    expect(readdirSync(other)).toEqual([]);
  });

  it('with --private-store starts a DynamoDB Local of its own on that DATA_DIR, and says so', async () => {
    const other = emptyDataDir();
    const email = uniqueEmail('root');
    const result = await createAdmin(['--email', email, '--private-store'], { password: 'admin password 1', env: { DATA_DIR: other } });
    expect(result).toEqual({
      code: 0,
      stdout: printed(/Created platform administrator .* in the new platform tenant 'platform' \(.*\)\./, email),
      stderr: `Store: a private DynamoDB Local on DATA_DIR=${other} (no npm start runs on it).\n`,
    });
    expect(readdirSync(join(other, 'dynamodb'))).toEqual(['shared-local-instance.db']);
    // Not in the running API's store.
    expect((await login(email, 'admin password 1')).response.status).toBe(401);
  }, 90_000);
});
