/**
 * `npm run soak [-- --seconds 60 --connections 10]`: the mixed scenario (supplier writes,
 * stock movements, reads) against a fresh local API for a set time, then checks the store:
 *
 * - every acknowledged supplier and movement is there, and nothing else was written;
 * - writes carry an Idempotency-Key, and a third of them are sent twice at once with it (a
 *   client retrying a request whose answer is late): each is written once, and both answers
 *   name the same record;
 * - quantities have up to 3 decimals and unit costs 4; each balance equals the exact sum of
 *   its movements, and each product's on-hand quantity and each warehouse's total the exact
 *   sum of their balances (compared as scaled integers, never as floats);
 * - no request got a 5xx.
 *
 * Exits 1 when any check fails. Traffic goes to 127.0.0.1 only and stops by itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cnpj } from 'cpf-cnpj-validator';
import { resetConfig } from '../lib/config';
import { getMany } from '../lib/db/batch';
import { scaledFrom } from '../lib/db/decimals';
import { parseScaled, QUANTITY_PLACES } from '../lib/domain/decimal';
import { keys } from '../lib/db/keys';
import { listMovements } from '../lib/inventory/repository';
import { applyLocalEnvironment } from '../local/environment';
import { readRuntimeInfo } from '../local/runtime';
import { signUp } from '../bench/support/sign-up';
import { startLocalApi } from '../tools/local-api';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, connections: { type: 'string', default: '10' } } });
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);

interface Acknowledged {
  suppliers: string[];
  movements: { id: string; productId: string; warehouseId: string; type: string; quantity: number }[];
  /** Answers that named another record than the first answer of their key. */
  divergentReplays: number;
}

const statuses = new Map<number, number>();
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;

async function main(): Promise<void> {
  if (!(SECONDS > 0) || !(CONNECTIONS > 0)) throw new Error('--seconds and --connections must be positive numbers');
  const dataDir = mkdtempSync(join(tmpdir(), 'backoffice-soak-'));
  const api = await startLocalApi({ dataDir, inMemory: true, allowedOrigins: 'https://app.example.com' });
  const failures: string[] = [];
  try {
    const send = async (method: string, path: string, body?: unknown, cookie?: string, key?: string) => {
      const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}), ...(key ? { 'idempotency-key': key } : {}) };
      const response = await fetch(`${api.url}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const text = await response.text();
      return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown>, cookies: response.headers.getSetCookie() };
    };

    // Accounts open through the sign-up's e-mailed invitation, read from the local outbox.
    const { cookie, tenantId } = await signUp(api.url, dataDir, { tenantName: 'soak', name: 'Soak', email: 'soak@example.com', password: 'soak password 123' });
    const warehouses: string[] = [];
    const products: string[] = [];
    for (let index = 0; index < 3; index += 1) warehouses.push(String((await send('POST', '/inventory/warehouses', { name: `W${index}` }, cookie)).json.id));
    for (let index = 0; index < 5; index += 1)
      products.push(String((await send('POST', '/inventory/products', { sku: `SOAK-${index}`, name: `Product ${index}`, unit: 'KG' }, cookie)).json.id));

    const acknowledged: Acknowledged = { suppliers: [], movements: [], divergentReplays: 0 };
    /** A write with a fresh key, sent twice at once a third of the time; the ids its 201 answers named (one, if all is well). */
    const write = async (path: string, body: unknown): Promise<string | undefined> => {
      const key = crypto.randomUUID();
      const copies = Math.random() < 1 / 3 ? 2 : 1;
      const answers = await Promise.all(Array.from({ length: copies }, () => send('POST', path, body, cookie, key)));
      const ids = new Set(answers.filter((answer) => answer.status === 201).map((answer) => String(answer.json.id)));
      if (ids.size > 1) acknowledged.divergentReplays += 1;
      return [...ids][0];
    };
    /** A decimal of up to `places` places between 0 and `max`, as a client would send it. */
    const decimal = (max: number, places: number) => Math.floor(Math.random() * max * 10 ** places) / 10 ** places;
    const deadline = Date.now() + SECONDS * 1000;
    console.log(`soak: ${CONNECTIONS} connections for ${SECONDS} s against ${api.url} ...`);
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < deadline) {
          const roll = Math.random();
          if (roll < 0.25) {
            const id = await write('/suppliers', {
              name: `Fornecedor ${Math.random().toString(36).slice(2, 8)}`,
              corporateName: 'Fornecedor Ltda',
              document: cnpj.generate(),
            });
            if (id) acknowledged.suppliers.push(id);
          } else if (roll < 0.65) {
            const movement =
              Math.random() < 0.55
                ? { productId: pick(products), warehouseId: pick(warehouses), type: 'IN', quantity: 0.001 + decimal(5, 3), unitCost: decimal(9, 4) }
                : { productId: pick(products), warehouseId: pick(warehouses), type: 'SALE', quantity: 0.001 + decimal(3, 3) };
            movement.quantity = Number(movement.quantity.toFixed(3));
            const id = await write('/inventory/movements', movement);
            if (id) acknowledged.movements.push({ id, ...movement });
          } else {
            await send(
              'GET',
              pick(['/companies', '/suppliers?search=forn&limit=20', '/inventory/dashboard/coverage?days=7', '/inventory/dashboard/by-warehouse']),
              undefined,
              cookie,
            );
          }
        }
      }),
    );

    // Read the store directly.
    const runtime = readRuntimeInfo(dataDir);
    if (!runtime) throw new Error('the local API did not record its store');
    await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, runtime.dynamoEndpoint);
    resetConfig();

    const supplierItems = await getMany(acknowledged.suppliers.map((id) => keys.supplier(tenantId, id)));
    const missingSuppliers = supplierItems.filter((item) => !item).length;
    if (missingSuppliers) failures.push(`${missingSuppliers} acknowledged suppliers are missing`);
    const page = await send('GET', '/suppliers?limit=1', undefined, cookie);
    if (page.json.total !== acknowledged.suppliers.length)
      failures.push(`supplier total ${String(page.json.total)} != ${acknowledged.suppliers.length} acknowledged`);

    if (acknowledged.divergentReplays) failures.push(`${acknowledged.divergentReplays} retried writes were answered with two different records`);
    const onHand = new Map<string, bigint>();
    const inWarehouse = new Map<string, bigint>();
    for (const productId of products) {
      for (const warehouseId of warehouses) {
        const stored = await listMovements(tenantId, productId, warehouseId);
        const acked = acknowledged.movements.filter((movement) => movement.productId === productId && movement.warehouseId === warehouseId);
        const storedIds = new Set(stored.map((item) => String(item.id)));
        const missing = acked.filter((movement) => !storedIds.has(movement.id)).length;
        if (missing) failures.push(`${missing} acknowledged movements missing for ${productId}/${warehouseId}`);
        if (stored.length !== acked.length) failures.push(`${stored.length} movements stored but ${acked.length} acknowledged for ${productId}/${warehouseId}`);
        const exact = (value: number) => parseScaled(value, QUANTITY_PLACES) ?? Number.NaN;
        const sum = stored.reduce((total, item) => total + (item.movementType === 'IN' ? 1n : -1n) * BigInt(exact(item.quantity)), 0n);
        const [balance] = await getMany([keys.stock(tenantId, productId, warehouseId)]);
        const quantity = scaledFrom(balance?.quantity, QUANTITY_PLACES);
        if (quantity !== sum) failures.push(`balance ${quantity} != sum of movements ${sum} (thousandths) for ${productId}/${warehouseId}`);
        if (quantity < 0n) failures.push(`negative balance for ${productId}/${warehouseId}`);
        onHand.set(productId, (onHand.get(productId) ?? 0n) + quantity);
        inWarehouse.set(warehouseId, (inWarehouse.get(warehouseId) ?? 0n) + quantity);
      }
    }
    // The stock history, walked page by page over HTTP: every acknowledged movement once, newest first.
    const listed: { id: string; occurredAt: string }[] = [];
    let cursor: string | null = null;
    do {
      const historyPage = await send('GET', `/inventory/movements?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, undefined, cookie);
      listed.push(...(historyPage.json.items as { id: string; occurredAt: string }[]));
      cursor = historyPage.json.nextCursor as string | null;
    } while (cursor);
    const listedIds = new Set(listed.map((item) => item.id));
    if (listedIds.size !== listed.length) failures.push(`the stock history lists ${listed.length - listedIds.size} movements twice`);
    const unlisted = acknowledged.movements.filter((movement) => !listedIds.has(movement.id)).length;
    if (unlisted || listed.length !== acknowledged.movements.length)
      failures.push(`the stock history lists ${listed.length} movements, ${unlisted} of ${acknowledged.movements.length} acknowledged missing`);
    if (listed.some((item, index) => index > 0 && item.occurredAt > (listed[index - 1]?.occurredAt ?? '')))
      failures.push('the stock history is not newest first');

    const productItems = await getMany(products.map((id) => keys.product(tenantId, id)));
    productItems.forEach((item, index) => {
      const expected = onHand.get(products[index] as string) ?? 0n;
      if (scaledFrom(item?.onHand, QUANTITY_PLACES) !== expected) failures.push(`product on-hand ${String(item?.onHand)} != ${expected} thousandths`);
    });
    const warehouseItems = await getMany(warehouses.map((id) => keys.warehouse(tenantId, id)));
    warehouseItems.forEach((item, index) => {
      const expected = inWarehouse.get(warehouses[index] as string) ?? 0n;
      if (scaledFrom(item?.totalItems, QUANTITY_PLACES) !== expected) failures.push(`warehouse total ${String(item?.totalItems)} != ${expected} thousandths`);
    });
    const serverErrors = [...statuses.entries()].filter(([status]) => status >= 500).reduce((total, [, count]) => total + count, 0);
    if (serverErrors) failures.push(`${serverErrors} responses were 5xx`);

    console.log(`soak: ${[...statuses.values()].reduce((a, b) => a + b, 0)} requests; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    console.log(`soak: ${acknowledged.suppliers.length} suppliers and ${acknowledged.movements.length} movements acknowledged`);
    if (failures.length) {
      console.error(`soak: FAILED\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      console.log('soak: every acknowledged write is in the store and in the stock history; balances equal the sum of their movements; no 5xx');
    }
  } finally {
    await api.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
