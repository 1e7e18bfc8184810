import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { call, login } from './api';

/**
 * `npm run seed` against the running local API's store, small: every step goes through the
 * services, so a value the services refuse (a unit cost such as 1 + 0.93, which is
 * 1.9300000000000002 as a float) would stop it. Its logins then work over HTTP.
 */
it('seeds a demo tenant whose administrator can sign in and list what was seeded', async () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1' };
  const child = spawn(
    join('node_modules', '.bin', 'tsx'),
    ['scripts/seed.ts', '--suppliers', '5', '--products', '40', '--warehouses', '2', '--sales', '200', '--companies', '1'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  expect({ code, stderr: stderr.split('\n').filter((line) => /error/i.test(line)) }).toEqual({ code: 0, stderr: [] });
  // Not a terminal: one line per step when it ends, no redrawn bars.
  const steps = stderr
    .split('\n')
    .filter((line) => / \d+\/\d+ in \d+\.\d s$/.test(line))
    .map((line) => line.replace(/ in \d+\.\d s$/, '').replace(/\s+/g, ' '));
  expect(steps).toEqual([
    'companies 1/1',
    'suppliers 5/5',
    'warehouses 2/2',
    'products 40/40',
    'stock 80/80',
    expect.stringMatching(/^sales \(daily totals\) (\d+)\/\1$/),
  ]);
  expect(stdout).toMatch(/: 1 company, 5 suppliers, 40 products, 2 warehouses, 200 sales over 90 days \(\d+ daily totals rolled up\)\./);

  const [, email, password] = /administrator\s+(\S+@\S+)\s+(.+)/.exec(stdout) ?? [];
  expect(email, stdout).toBeDefined();
  const signedIn = await login(String(email), String(password).trim());
  expect(signedIn.response.status).toBe(200);
  const products = await call<unknown[]>('GET', '/inventory/products', { cookies: signedIn.cookies });
  expect(products.body).toHaveLength(40);
  const byWarehouse = await call<{ totalProducts: number }[]>('GET', '/inventory/dashboard/by-warehouse', { cookies: signedIn.cookies });
  expect(byWarehouse.body.map((warehouse) => warehouse.totalProducts)).toEqual([40, 40]);
}, 120_000);
