import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalApi, type LocalApi } from '../../tools/local-api';

/**
 * `npm start` reloads the handlers when their source changes, keeping DynamoDB Local and its
 * data. The API runs from a copy of the repository's source (so the test edits files nobody
 * else reads), watching as `npm start` does; each check polls until the change shows or a
 * generous deadline passes, so no timing is asserted.
 */
const ROOT = resolve('.');
const checkout = mkdtempSync(join(tmpdir(), 'backoffice-hot-reload-'));
let api: LocalApi;
let output = '';

beforeAll(async () => {
  for (const folder of ['functions', 'lib', 'local', 'tools', 'clients']) cpSync(join(ROOT, folder), join(checkout, folder), { recursive: true });
  // The console npm start serves (its build, when stale, runs beside DynamoDB Local's start).
  cpSync(join(ROOT, 'console'), join(checkout, 'console'), { recursive: true, filter: (source) => !source.includes(`${join(ROOT, 'console', 'dist')}`) });
  for (const file of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, file), join(checkout, file));
  symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'), 'dir');
  api = await startLocalApi({
    dataDir: join(checkout, '.data'),
    inMemory: true,
    allowedOrigins: 'https://app.example.com',
    watch: true,
    root: checkout,
    onOutput: (text) => (output += text),
  });
}, 90_000);

afterAll(async () => {
  await api?.stop();
  rmSync(checkout, { recursive: true, force: true });
});

const createTenant = async (body: unknown) => {
  const response = await fetch(`${api.url}/tenants`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

/** Edit a file of the copy: replace `from` (which must be there) with `to`. */
function edit(file: string, from: string, to: string): void {
  const path = join(checkout, file);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(from);
  writeFileSync(path, text.replace(from, to));
}

/** Poll `probe` until `done` holds for its value (every 100 ms, up to 20 s); the last value. */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    value = await probe();
  }
  return value;
}

describe('npm start hot reload', () => {
  it('answers with the edited code of a lib/ module a handler imports, with the data kept', async () => {
    const name = `hot-${Date.now()}`;
    expect((await createTenant({ name, plan: 'STARTER' })).status).toBe(201);
    expect((await createTenant({})).body).toMatchObject({ status: 400, title: 'Invalid request' });

    edit('lib/errors.ts', "readonly title = 'Invalid request';", "readonly title = 'Invalid request (edited)';");

    const edited = await eventually(
      () => createTenant({}),
      (response) => response.body.title !== 'Invalid request',
    );
    expect(edited, output).toEqual({ status: 400, body: expect.objectContaining({ status: 400, title: 'Invalid request (edited)' }) });
    const reloaded = /\[reload\] lib\/errors\.ts changed: generation \d+, \d+ loaded handler\(s\) imported again in \d+ ms\n/;
    expect(
      await eventually(
        async () => output,
        (text) => reloaded.test(text),
      ),
    ).toMatch(reloaded);
    // Same DynamoDB Local, same data: the name is still taken.
    expect((await createTenant({ name, plan: 'STARTER' })).status).toBe(409);
  });

  it('answers 500 while a handler file does not load, and recovers when it is fixed', async () => {
    edit('functions/tenants/create-tenant.ts', 'export const handler =', 'export const handler = ;');
    const broken = await eventually(
      () => createTenant({}),
      (response) => response.status === 500,
    );
    expect(broken.status, output).toBe(500);
    // The line comes once every loaded handler was tried, which may be after this answer.
    const failed =
      /\[reload\] functions\/tenants\/create-tenant\.ts changed: generation \d+, functions\/tenants\/create-tenant\.ts failed to load \(functions\/tenants\/create-tenant\.ts:7:\d+: ERROR: Unexpected ";"\); its route answers 500 until fixed\n/;
    expect(
      await eventually(
        async () => output,
        (text) => failed.test(text),
      ),
    ).toMatch(failed);

    edit('functions/tenants/create-tenant.ts', 'export const handler = ;', 'export const handler =');
    const fixed = await eventually(
      () => createTenant({}),
      (response) => response.status === 400,
    );
    expect(fixed.body).toMatchObject({ status: 400, title: 'Invalid request (edited)' });
  });
});
