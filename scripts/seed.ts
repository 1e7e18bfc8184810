/**
 * `npm run seed [-- --suppliers 200 --products 300 --warehouses 4 --sales 20000 --companies 3] [--private-store]`
 *
 * A demo tenant in the running `npm start`'s store (or, with `--private-store` and no API on
 * $DATA_DIR, in a DynamoDB Local of its own there; local/store.ts): an administrator and a
 * member, companies, suppliers, products, warehouses with stock, and 90 days of sales already
 * rolled up for the coverage dashboard. Prints the logins at the end.
 *
 * Everything goes through the services the API uses (so every invariant holds), except the
 * sales: they are written as daily totals per product (what a day's SALE movements leave
 * for the roll-up job) and rolled up by the real job, so 100,000 sales are not 100,000 writes.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import * as z from 'zod';
import { inviteUser } from '../lib/auth/invitations';
import type { Principal } from '../lib/auth/principal';
import { register } from '../lib/auth/registration';
import { createCompany } from '../lib/companies/service';
import { config } from '../lib/config';
import { writeDailySalesTotals, writeRolledUpSales } from '../lib/jobs/sales-rollup-repository';
import { addDays, dayOf } from '../lib/domain/days';
import { addMovement, createProduct, createWarehouse } from '../lib/inventory/service';
import { runSalesRollup } from '../lib/jobs/sales-rollup';
import { mapConcurrently } from '../lib/domain/concurrency';
import { counted } from '../lib/domain/text';
import { createSupplier } from '../lib/suppliers/service';
import { createTenant } from '../lib/tenants/service';
import { routeLimit } from '../lib/rate-limit';
import { routes } from '../lib/routes';
import { connectLocalStore } from '../local/store';
import { progress, type Progress } from '../tools/progress';

const count = (fallback: number, max: number) => z.coerce.number().int().min(0).max(max).default(fallback);
const optionsSchema = z.object({
  suppliers: count(200, 100_000),
  products: count(300, 20_000),
  warehouses: count(4, 50).pipe(z.number().min(1)),
  sales: count(20_000, 10_000_000),
  companies: count(3, 100),
});

const PASSWORD = 'demo password 123';
const SALES_DAYS = 90;
/** Daily totals the seed leaves to the roll-up job; more are written as rolled-up series (DynamoDB Local writes about 150 counters a second). */
const ROLLED_BY_THE_JOB = 20_000;
const TRADE = ['Distribuidora', 'Comercial', 'Atacadão', 'Indústria', 'Importadora', 'Casa', 'Empório'];
const PLACE = ['São Jorge', 'Paulista', 'Ipiranga', 'Goiás', 'Ceará', 'Amazônia', 'Pará', 'Minas', 'Paraná', 'Bahia'];
const GOODS = ['Café', 'Açúcar', 'Arroz', 'Feijão', 'Óleo', 'Farinha', 'Leite', 'Biscoito', 'Macarrão', 'Sabão'];

/** Run tasks with at most `width` in flight, ticking the bar as each ends. */
async function inParallel(tasks: (() => Promise<unknown>)[], width: number, bar: Progress): Promise<void> {
  await mapConcurrently(tasks, width, async (task) => {
    await task();
    bar.increment();
  });
}

async function step(label: string, total: number, tasks: (() => Promise<unknown>)[], width = 8): Promise<void> {
  const bar = progress(label, total);
  try {
    await inParallel(tasks, width, bar);
  } finally {
    bar.stop();
  }
}

/** The token of the invitation just mailed to an address: the local store mails into the outbox folder. */
function invitationTokenFromOutbox(address: string): string {
  const directory = config().OUTBOX_DIR;
  if (config().MAIL_TRANSPORT !== 'outbox' || !directory) throw new Error('seed needs the local outbox mail transport');
  for (const file of readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .reverse()) {
    const message = JSON.parse(readFileSync(join(directory, file), 'utf8')) as { to: string; text: string };
    const token = message.to === address ? /[?&]token=([\w-]+)/.exec(message.text)?.[1] : undefined;
    if (token) return token;
  }
  throw new Error(`no invitation mail for ${address} in ${directory}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      suppliers: { type: 'string' },
      products: { type: 'string' },
      warehouses: { type: 'string' },
      sales: { type: 'string' },
      companies: { type: 'string' },
      'private-store': { type: 'boolean' },
    },
    strict: true,
  });
  const { 'private-store': privateStore, ...counts } = values;
  const parsed = optionsSchema.safeParse(counts);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
    process.exit(2);
  }
  const options = parsed.data;
  const store = await connectLocalStore({ privateStore });
  try {
    const nowMs = Date.now();
    const suffix = randomUUID().slice(0, 6);
    const client = { ip: '127.0.0.1', userAgent: 'seed' };

    const adminEmail = `admin.${suffix}@demo.example`;
    const memberEmail = `member.${suffix}@demo.example`;
    // Every account opens through its e-mailed link, as over HTTP: the sign-up invites the administrator.
    const tenant = await createTenant({ name: `demo-${suffix}`, plan: 'PROFESSIONAL', brandName: 'Loja Demonstração', adminEmail }, nowMs);
    const attempts = routeLimit(routes.register, 'ip');
    const admin = await register(
      { name: 'Ana Administradora', email: adminEmail, password: PASSWORD, tenantId: tenant.id, invitationToken: invitationTokenFromOutbox(adminEmail) },
      client,
      nowMs,
      attempts,
    );
    const principal: Principal = {
      kind: 'user',
      tenantId: tenant.id,
      userId: admin.user.id,
      sessionId: randomUUID(),
      jti: randomUUID(),
      role: 'ADMIN',
      platformAdmin: false,
      name: admin.user.name,
      email: adminEmail,
      tokenExpiresAt: 0,
      sessionsValidFrom: null,
      credentialVersion: 0,
      mfaEnrolmentRequired: false,
    };
    await inviteUser(principal, memberEmail, nowMs);
    const invitationToken = invitationTokenFromOutbox(memberEmail);
    await register({ name: 'Marcos Membro', email: memberEmail, password: PASSWORD, tenantId: tenant.id, invitationToken }, client, nowMs, attempts);

    await step(
      'companies',
      options.companies,
      Array.from(
        { length: options.companies },
        (_, index) => () => createCompany(principal, { name: `Loja Demonstração ${index + 1}`, document: cnpj.generate() }, nowMs),
      ),
    );

    await step(
      'suppliers',
      options.suppliers,
      Array.from({ length: options.suppliers }, (_, index) => () => {
        const name = `${TRADE[index % TRADE.length]} ${PLACE[Math.floor(index / TRADE.length) % PLACE.length]} ${index + 1}`;
        return createSupplier(
          principal,
          {
            name,
            corporateName: `${name} Ltda`,
            document: index % 5 === 0 ? cpf.generate() : cnpj.generate(),
            email: `contato${index + 1}@fornecedor.example`,
            phone: `+55119${String(10_000_000 + index).slice(-8)}`,
            active: index % 10 !== 0,
          },
          nowMs,
        );
      }),
      16,
    );

    const warehouses: { id: string }[] = [];
    await step(
      'warehouses',
      options.warehouses,
      Array.from({ length: options.warehouses }, (_, index) => async () => {
        warehouses[index] = await createWarehouse(principal, { name: `Depósito ${index + 1}` }, nowMs);
      }),
    );
    const products: { id: string }[] = [];
    await step(
      'products',
      options.products,
      Array.from({ length: options.products }, (_, index) => async () => {
        products[index] = await createProduct(
          principal,
          { sku: `SKU-${String(index + 1).padStart(5, '0')}`, name: `${GOODS[index % GOODS.length]} ${index + 1}` },
          nowMs,
        );
      }),
    );

    await step(
      'stock',
      products.length * warehouses.length,
      products.flatMap((product, p) =>
        warehouses.map(
          (warehouse, w) => () =>
            addMovement(
              principal,
              {
                productId: product.id,
                warehouseId: warehouse.id,
                type: 'IN',
                quantity: 50 + ((p * 7 + w * 13) % 200),
                unitCost: (100 + ((p * 31) % 4000)) / 100,
              },
              nowMs,
            ),
        ),
      ),
      4,
    );

    const today = dayOf(nowMs, config().BUSINESS_TIME_ZONE);
    const totals = new Map<string, { tenantId: string; productId: string; day: string; units: number }>();
    for (let sale = 0; sale < options.sales && products.length > 0; sale += 1) {
      // Popular products sell more: a skewed pick, spread over the 90 complete days.
      const product = products[Math.floor(products.length * Math.random() ** 2)] as { id: string };
      const day = addDays(today, -1 - Math.floor(Math.random() * SALES_DAYS));
      const key = `${product.id}#${day}`;
      const entry = totals.get(key) ?? { tenantId: tenant.id, productId: product.id, day, units: 0 };
      entry.units += 1 + Math.floor(Math.random() * 3);
      totals.set(key, entry);
    }
    // Up to ROLLED_BY_THE_JOB daily totals go through the real roll-up job (pending counters,
    // then the job); a larger seed writes each product's series as the job would leave it.
    const entries = [...totals.values()];
    const direct = entries.length > ROLLED_BY_THE_JOB;
    const salesBar = progress(
      direct ? 'sales (series)' : 'sales (daily totals)',
      direct ? new Set(entries.map((entry) => entry.productId)).size : entries.length,
    );
    if (direct) await writeRolledUpSales(entries, (written) => salesBar.update(written));
    else await writeDailySalesTotals(entries, (written) => salesBar.update(written));
    salesBar.stop();
    // The job rolls up the pending totals, and brings the coverage index up to date either way.
    const job = await runSalesRollup({ nowMs });
    const rolled = { counters: direct ? entries.length : job.counters };

    console.log(
      `\nSeeded tenant '${tenant.name}' (${tenant.id}): ${counted(options.companies, 'company', 'companies')}, ${counted(options.suppliers, 'supplier')}, ${counted(options.products, 'product')}, ${counted(options.warehouses, 'warehouse')}, ${counted(options.sales, 'sale')} over ${SALES_DAYS} days (${counted(rolled.counters, 'daily total')} rolled up).`,
    );
    console.log('Logins (POST /auth/login):');
    console.log(`  administrator  ${adminEmail}  ${PASSWORD}`);
    console.log(`  member         ${memberEmail}  ${PASSWORD}`);
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
