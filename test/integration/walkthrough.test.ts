import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { apiUrl, call, login } from './api';

/**
 * `npm run walkthrough` (scripts/walkthrough.ts) against the shared local API, as a person
 * runs it: a child process, twice in a row on the same API (it must run again and again),
 * then once more with the sign-up rate-limited (it goes on with the account the last run
 * left), and once where no API listens.
 */

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The shared API runs 100 test files on 2 cores: a walkthrough may take a while. */
const RUN_TIMEOUT_MS = 240_000;

function walkthrough(baseUrl = apiUrl()): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/walkthrough.ts'], {
      env: { ...process.env, BASE_URL: baseUrl, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the walkthrough did not end within ${RUN_TIMEOUT_MS / 1000} s:\n${stdout}\n${stderr}`));
    }, RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** One whole line of the output. */
const line = (text: string) => new RegExp(`^${escape(text)}$`, 'm');

/** The lines every run prints from step 3 on (signed in, whoever the account). */
function expectStepsFromThree(run: Run): void {
  const { stdout } = run;
  expect(stdout).toMatch(line('3. who am I  GET /auth/me → 200'));
  expect(stdout).toMatch(line('4. create a company  POST /companies → 201'));
  expect(stdout).toMatch(line('4. list companies  GET /companies → 200'));
  expect(stdout).toMatch(/^ {3}\d+ compan(y|ies), the new one included$/m);
  expect(stdout).toMatch(line('5. create a supplier  POST /suppliers → 201'));
  // The search by the suffix of the supplier's name finds it.
  const search = /^5\. search suppliers {2}GET \/suppliers\?search=(\w+) → 200$/m.exec(stdout);
  expect(search, stdout).not.toBeNull();
  expect(stdout).toMatch(line(`   found Distribuidora São Jorge ${search?.[1] ?? '?'} (1 match)`));
  expect(stdout).toMatch(line('6. create a warehouse  POST /inventory/warehouses → 201'));
  expect(stdout).toMatch(line('6. create a product  POST /inventory/products → 201'));
  expect(stdout).toMatch(line('6. record a purchase (IN 10 at 12.50)  POST /inventory/movements → 201'));
  expect(stdout).toMatch(line('   balance 10 units, average cost 12.50'));
  expect(stdout).toMatch(line('6. record a sale (SALE 3)  POST /inventory/movements → 201'));
  expect(stdout).toMatch(line('   balance 7 units, average cost 12.50'));
  expect(stdout).toMatch(line('7. read the stock coverage  GET /inventory/dashboard/coverage → 200'));
  expect(stdout).toMatch(/^ {3}\d+ products?; CAFE-\w+: 7 available, /m);
  expect(stdout).toMatch(line('8. refresh the session  POST /auth/refresh → 200'));
  expect(stdout).toMatch(line('8. log out  POST /auth/logout → 200'));
  expect(stdout).toMatch(line('8. the old access cookie after logout  GET /auth/me → 401'));
  expect(stdout).toMatch(line('8. log in again  POST /auth/login → 200'));
  // Other files' requests may come from 127.0.0.1 too: the forgot-password limit (3 an hour
  // per IP) may trip, and that is a plainly named skip, not a failure.
  if (/^9\. forgot-password: rate-limited/m.test(stdout)) {
    expect(stdout).toMatch(/^9\. forgot-password: rate-limited \(429, retry after \d+ s\) — skipped$/m);
    expect(stdout).toMatch(line('9. reset-password: skipped (no reset e-mail: forgot-password was rate-limited)'));
  } else {
    expect(stdout).toMatch(line('9. forgot-password  POST /auth/forgot-password → 200'));
    expect(stdout).toMatch(line('9. reset-password  POST /auth/reset-password → 200'));
    expect(stdout).toMatch(line('9. log in with the new password  POST /auth/login → 200'));
  }
  expect(stdout).toMatch(/^Done: every step answered as documented/m);
}

/** The account the walkthrough keeps in $DATA_DIR/walkthrough.json. */
const remembered = () => JSON.parse(readFileSync(join(inject('dataDir'), 'walkthrough.json'), 'utf8')) as { tenantId: string; email: string; password: string };

/** The administrator's address a run signed up. */
const signedUpEmail = (run: Run) => /^ {3}tenant \S+ \(loja-da-ana-\w+\), administrator (\S+)$/m.exec(run.stdout)?.[1];

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('npm run walkthrough', () => {
  const emails: string[] = [];

  it(
    'walks through every step, and runs again on the same API',
    async () => {
      for (let round = 0; round < 2; round += 1) {
        const run = await walkthrough();
        const shown = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
        expect(run.code, shown).toBe(0);
        expect(run.stdout, shown).toMatch(line(`Walkthrough of ${apiUrl()} (e-mails from ${join(inject('dataDir'), 'outbox')})`));
        expect(run.stdout, shown).toMatch(line('1. sign up a tenant  POST /tenants → 201'));
        expect(run.stdout, shown).toMatch(line('2. register the administrator  POST /auth/register → 200'));
        expect(run.stdout, shown).toMatch(/^ {3}user [0-9a-f-]{36}, signed in \(token from the invitation e-mail\)$/m);
        expectStepsFromThree(run);
        const email = signedUpEmail(run);
        expect(email, shown).toMatch(/^ana\.\w+@example\.com$/);
        emails.push(email as string);
        expect(run.stdout).toContain(`   Ana <${email}>, tenant `);
      }
      // Every name carries its own suffix: two tenants, two administrators.
      expect(new Set(emails).size).toBe(2);
      // The last run's account is remembered with the password it ended with, and signs in.
      const account = remembered();
      expect(account.email).toBe(emails[1]);
      expect((await login(account.email, account.password)).response.status).toBe(200);
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    "goes on with the last run's account when the sign-up is rate-limited (10 an hour per IP)",
    async () => {
      // The walkthrough calls from 127.0.0.1: use up that address's sign-ups of this hour.
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const response = await call('POST', '/tenants', { body: { name: `walkthrough-filler-${Date.now()}-${attempt}`, plan: 'STARTER' }, ip: '127.0.0.1' });
        if (response.status === 429) break;
        expect(response.status).toBe(201);
      }
      const before = remembered();
      const run = await walkthrough();
      const shown = `exit ${run.code}\n${run.stdout}\n${run.stderr}`;
      expect(run.code, shown).toBe(0);
      expect(run.stdout, shown).toMatch(/^1\. sign up a tenant: rate-limited \(429, retry after \d+ s\) — skipped$/m);
      expect(run.stdout, shown).toContain(`   continuing with the last run's account ${before.email} (tenant ${before.tenantId})`);
      expect(run.stdout, shown).toMatch(line("2. log in to the last run's account  POST /auth/login → 200"));
      expectStepsFromThree(run);
      const after = remembered();
      expect(after.email).toBe(before.email);
      expect((await login(after.email, after.password)).response.status).toBe(200);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'says there is no API, and exits 1, where nothing listens',
    async () => {
      const baseUrl = `http://127.0.0.1:${await closedPort()}`;
      const run = await walkthrough(baseUrl);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
      expect(run.stderr).toMatch(line(`No API at ${baseUrl}: start it with npm start`));
      expect(run.stderr).not.toContain('TypeError');
    },
    RUN_TIMEOUT_MS,
  );
});
