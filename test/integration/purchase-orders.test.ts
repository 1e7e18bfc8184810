import { randomUUID } from 'node:crypto';
import { cnpj } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyTenant } from '../../lib/integrity/engine';
import type { PurchaseOrderView } from '../../lib/purchase-orders/schemas';
import { call, newTenantWithAdmin, outboxFor, problem, settled, useLocalStoreInProcess, type Account } from './api';

/**
 * Purchase orders over HTTP: numbered per company without gaps or duplicates (also 20 at once),
 * exact totals, items editable only in DRAFT, ETags, cancellation, refusals that write nothing,
 * and the list's filters.
 */

beforeAll(useLocalStoreInProcess);

const as = (account: Account, extra: { body?: unknown; headers?: Record<string, string> } = {}) => ({ cookies: account.cookies, ...extra });

async function post<T = { id: string }>(account: Account, path: string, body: unknown): Promise<T> {
  const response = await call<T>('POST', path, as(account, { body }));
  expect(response.status, `${path} ${JSON.stringify(response.body)}`).toBe(201);
  return response.body;
}

/** A supplier, a company, a warehouse and two products (one sold by the kilo). */
async function buying(account: Account) {
  const [supplier, company, warehouse, coffee, beans] = await Promise.all([
    post(account, '/suppliers', { name: 'Torrefação Sul', corporateName: 'Torrefação Sul Ltda', document: cnpj.generate() }),
    post(account, '/companies', { name: 'Loja Centro', document: cnpj.generate() }),
    post(account, '/inventory/warehouses', { name: 'Depósito' }),
    post(account, '/inventory/products', { sku: `CAF-${randomUUID().slice(0, 6)}`, name: 'Café 500 g' }),
    post(account, '/inventory/products', { sku: `GRAO-${randomUUID().slice(0, 6)}`, name: 'Café em grão', unit: 'KG' }),
  ]);
  return { supplierId: supplier.id, companyId: company.id, warehouseId: warehouse.id, coffee: coffee.id, beans: beans.id };
}

async function expectVerifyClean(tenantId: string) {
  const report = await verifyTenant(tenantId);
  expect(report.invariants.filter((invariant) => invariant.drift.length > 0)).toEqual([]);
}

const create = (account: Account, body: Record<string, unknown>, headers?: Record<string, string>) =>
  call<PurchaseOrderView>('POST', '/purchase-orders', as(account, { body, ...(headers ? { headers } : {}) }));
const list = async (account: Account, query = '') =>
  (await call<{ items: PurchaseOrderView[]; nextCursor: string | null }>('GET', `/purchase-orders${query}`, as(account))).body;

describe('/purchase-orders', () => {
  it('creates a DRAFT numbered by its company, with exact totals, read back with its ETag', async () => {
    const admin = await newTenantWithAdmin();
    const at = await buying(admin);
    const order = { supplierId: at.supplierId, companyId: at.companyId, warehouseId: at.warehouseId };
    const created = await create(admin, {
      ...order,
      expectedAt: '2026-12-10',
      notes: 'Entregar pela manhã',
      items: [
        { productId: at.coffee, quantity: 84, unitCost: 8.5 },
        { productId: at.beans, quantity: 2.5, unitCost: 3.3333 },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('etag')).toBe('"1"');
    const expected = {
      id: expect.any(String),
      code: 'PC-000001',
      number: 1,
      ...order,
      status: 'DRAFT',
      expectedAt: '2026-12-10',
      notes: 'Entregar pela manhã',
      items: [
        { productId: at.coffee, quantity: 84, unitCost: 8.5, total: 714, received: 0 },
        // 2.5 × 3.3333 = 8.33325: 8.33 shown, and the order's total sums the exact values.
        { productId: at.beans, quantity: 2.5, unitCost: 3.3333, total: 8.33, received: 0 },
      ],
      total: 722.33,
      createdAt: expect.any(String),
      updatedAt: created.body.createdAt,
      sentAt: null,
      cancelledAt: null,
      version: 1,
    };
    expect(created.body).toEqual(expected);
    const read = await call<PurchaseOrderView>('GET', `/purchase-orders/${created.body.id}`, as(admin));
    expect(read.body).toEqual(expected);
    expect(read.headers.get('etag')).toBe('"1"');
    // The company's next number; another company starts at 1.
    expect((await create(admin, { ...order, items: [{ productId: at.coffee, quantity: 1, unitCost: 1 }] })).body.code).toBe('PC-000002');
    const other = await post(admin, '/companies', { name: 'Loja Norte', document: cnpj.generate() });
    expect((await create(admin, { ...order, companyId: other.id, items: [{ productId: at.coffee, quantity: 1, unitCost: 1 }] })).body.code).toBe('PC-000001');
  });

  it('gives 20 orders created at once in one company 20 distinct consecutive numbers', async () => {
    const admin = await newTenantWithAdmin();
    const at = await buying(admin);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => {
        const key = { 'Idempotency-Key': randomUUID() };
        return settled(() =>
          create(
            admin,
            { supplierId: at.supplierId, companyId: at.companyId, warehouseId: at.warehouseId, items: [{ productId: at.coffee, quantity: 1, unitCost: 2 }] },
            key,
          ),
        );
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 201));
    expect(answers.map((answer) => answer.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
    // A retry with its key is the same order, not a 21st.
    const key = { 'Idempotency-Key': randomUUID() };
    const body = {
      supplierId: at.supplierId,
      companyId: at.companyId,
      warehouseId: at.warehouseId,
      items: [{ productId: at.coffee, quantity: 1, unitCost: 2 }],
    };
    const first = await create(admin, body, key);
    expect((await create(admin, body, key)).body).toEqual(first.body);
    expect(first.body.number).toBe(21);
    expect((await list(admin, '?limit=100')).items).toHaveLength(21);
    await expectVerifyClean(admin.tenantId);
  });

  it('changes items only in DRAFT and only at the version read, and cancels a DRAFT or SENT order once', async () => {
    const admin = await newTenantWithAdmin();
    const at = await buying(admin);
    const created = (
      await create(admin, {
        supplierId: at.supplierId,
        companyId: at.companyId,
        warehouseId: at.warehouseId,
        items: [{ productId: at.coffee, quantity: 12, unitCost: 8 }],
      })
    ).body;
    const path = `/purchase-orders/${created.id}`;
    expect(await call('PATCH', path, as(admin, { body: { notes: 'x' }, headers: { 'If-Match': '"9"' } }))).toMatchObject({
      status: 412,
      body: problem(412, 'precondition-failed'),
    });
    const changed = await call<PurchaseOrderView>(
      'PATCH',
      path,
      as(admin, { body: { items: [{ productId: at.beans, quantity: 1.5, unitCost: 20 }], expectedAt: '2026-12-01' }, headers: { 'If-Match': '"1"' } }),
    );
    expect(changed).toMatchObject({
      status: 200,
      body: { items: [{ productId: at.beans, quantity: 1.5, unitCost: 20, total: 30, received: 0 }], total: 30, expectedAt: '2026-12-01', version: 2 },
    });
    expect(changed.headers.get('etag')).toBe('"2"');
    const cancelled = await call<PurchaseOrderView>('POST', `${path}/cancel`, as(admin));
    expect(cancelled).toMatchObject({ status: 200, body: { status: 'CANCELLED', cancelledAt: expect.any(String), version: 3 } });
    expect(await call('POST', `${path}/cancel`, as(admin))).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect(await call('PATCH', path, as(admin, { body: { notes: 'depois' } }))).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect((await call<PurchaseOrderView>('GET', path, as(admin))).body).toEqual(cancelled.body);
  });

  it('refuses what it cannot record with a clear problem, writes nothing, and shows no other tenant its orders', async () => {
    const admin = await newTenantWithAdmin();
    const at = await buying(admin);
    const base = {
      supplierId: at.supplierId,
      companyId: at.companyId,
      warehouseId: at.warehouseId,
      items: [{ productId: at.coffee, quantity: 1, unitCost: 1 }],
    };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, supplierId: randomUUID() }, 404, 'not-found'],
      [{ ...base, companyId: randomUUID() }, 404, 'not-found'],
      [{ ...base, warehouseId: randomUUID() }, 404, 'not-found'],
      [{ ...base, items: [{ productId: randomUUID(), quantity: 1, unitCost: 1 }] }, 404, 'not-found'],
      [{ ...base, items: [] }, 400, 'validation'],
      [{ ...base, items: [{ productId: at.coffee, quantity: 1.5, unitCost: 1 }] }, 400, 'validation'],
      [{ ...base, items: [{ productId: at.coffee, quantity: 1, unitCost: 1.00001 }] }, 400, 'validation'],
      [{ ...base, items: [base.items[0], base.items[0]] }, 400, 'validation'],
      [{ ...base, expectedAt: '10/12/2026' }, 400, 'validation'],
    ];
    for (const [body, status, type] of cases) expect(await create(admin, body), JSON.stringify(body)).toMatchObject({ status, body: problem(status, type) });
    expect((await list(admin)).items).toEqual([]);
    // Nothing took a number: the first order is still PC-000001.
    const first = (await create(admin, base)).body;
    expect(first.code).toBe('PC-000001');
    const other = await newTenantWithAdmin();
    expect((await call('GET', `/purchase-orders/${first.id}`, as(other))).status).toBe(404);
    expect((await call('POST', `/purchase-orders/${first.id}/cancel`, as(other))).status).toBe(404);
    expect((await create(other, base)).status).toBe(404);
    expect((await list(other)).items).toEqual([]);
  });

  it('e-mails a DRAFT to its supplier in Portuguese with a CSV of the items, then it is SENT; what is not a DRAFT, or has nowhere to go, is refused', async () => {
    const admin = await newTenantWithAdmin();
    const at = await buying(admin);
    const email = `compras-${randomUUID().slice(0, 8)}@torrefacao.example`;
    expect((await call('PATCH', `/suppliers/${at.supplierId}`, as(admin, { body: { email } }))).status).toBe(200);
    expect((await call('POST', `/suppliers/${at.supplierId}/products`, as(admin, { body: { productId: at.coffee, supplierCode: 'TS-500' } }))).status).toBe(
      201,
    );
    const order = (
      await create(admin, {
        supplierId: at.supplierId,
        companyId: at.companyId,
        warehouseId: at.warehouseId,
        expectedAt: '2026-12-10',
        items: [
          { productId: at.coffee, quantity: 1200, unitCost: 8.5 },
          { productId: at.beans, quantity: 2.5, unitCost: 3.3333 },
        ],
      })
    ).body;
    const sent = await call<PurchaseOrderView>('POST', `/purchase-orders/${order.id}/send`, as(admin, { body: {} }));
    expect(sent).toMatchObject({ status: 200, body: { status: 'SENT', sentAt: expect.any(String), version: 2 } });
    const [mail, ...more] = outboxFor(email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Pedido de compra PC-000001 — Loja Centro');
    expect(mail?.text).toContain('- TS-500 Café 500 g: 1.200 UN × R$ 8,50 = R$ 10.200,00');
    expect(mail?.text).toContain('Total do pedido: R$ 10.208,33');
    expect(mail?.text).toContain('previsão 10/12/2026');
    expect(mail?.html).toContain('<td style="text-align:right">R$ 3,3333</td>');
    expect(mail?.attachments).toEqual([
      {
        filename: 'PC-000001.csv',
        contentType: 'text/csv; charset=UTF-8',
        content: expect.stringMatching(
          /^\uFEFFCódigo do fornecedor;SKU;Produto;Unidade;Quantidade;Custo unitário;Total\r\nTS-500;CAF-\w+;Café 500 g;UN;1200;8,5;10200\r\n;GRAO-\w+;Café em grão;KG;2,5;3,3333;8,33\r\n$/,
        ),
      },
    ]);
    expect(await call('POST', `/purchase-orders/${order.id}/send`, as(admin, { body: {} }))).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect(
      await call('PATCH', `/purchase-orders/${order.id}`, as(admin, { body: { items: [{ productId: at.coffee, quantity: 1, unitCost: 1 }] } })),
    ).toMatchObject({ status: 409 });
    // The expected day still changes after it was sent.
    expect((await call('PATCH', `/purchase-orders/${order.id}`, as(admin, { body: { expectedAt: '2026-12-12' } }))).status).toBe(200);
    // A supplier without an e-mail needs `to`.
    const other = await post(admin, '/suppliers', { name: 'Sem Email', corporateName: 'Sem Email Ltda', document: cnpj.generate() });
    const quiet = (
      await create(admin, {
        supplierId: other.id,
        companyId: at.companyId,
        warehouseId: at.warehouseId,
        items: [{ productId: at.coffee, quantity: 1, unitCost: 1 }],
      })
    ).body;
    expect(await call('POST', `/purchase-orders/${quiet.id}/send`, as(admin, { body: {} }))).toMatchObject({ status: 409, body: problem(409, 'conflict') });
    expect((await call<PurchaseOrderView>('GET', `/purchase-orders/${quiet.id}`, as(admin))).body.status).toBe('DRAFT');
    const elsewhere = `outro-${randomUUID().slice(0, 8)}@loja.example`;
    expect((await call<PurchaseOrderView>('POST', `/purchase-orders/${quiet.id}/send`, as(admin, { body: { to: elsewhere } }))).body.status).toBe('SENT');
    expect(outboxFor(elsewhere)).toHaveLength(1);
    // Cancelling a SENT order takes what it had on order back off (verify re-derives it from the orders).
    expect((await call('POST', `/purchase-orders/${quiet.id}/cancel`, as(admin))).status).toBe(200);
    await expectVerifyClean(admin.tenantId);
  });

  it('sends at most 30 orders an hour per user: the 31st is 429 and stays a DRAFT', async () => {
    const admin = await newTenantWithAdmin();
    const at = await buying(admin);
    const body = {
      supplierId: at.supplierId,
      companyId: at.companyId,
      warehouseId: at.warehouseId,
      items: [{ productId: at.coffee, quantity: 1, unitCost: 1 }],
    };
    const orders = await Promise.all(
      Array.from({ length: 31 }, () => {
        const key = { 'Idempotency-Key': randomUUID() };
        return settled(() => create(admin, body, key));
      }),
    );
    const to = `limite-${randomUUID().slice(0, 8)}@fornecedor.example`;
    const statuses: number[] = [];
    for (const order of orders) statuses.push((await call('POST', `/purchase-orders/${order.body.id}/send`, as(admin, { body: { to } }))).status);
    expect(statuses).toEqual([...Array.from({ length: 30 }, () => 200), 429]);
    expect((await call<PurchaseOrderView>('GET', `/purchase-orders/${orders[30]?.body.id}`, as(admin))).body.status).toBe('DRAFT');
    expect(outboxFor(to)).toHaveLength(30);
  });

  it('lists newest first by status, supplier and company', async () => {
    const admin = await newTenantWithAdmin();
    const at = await buying(admin);
    const second = await buying(admin);
    const body = (place: typeof at) => ({
      supplierId: place.supplierId,
      companyId: place.companyId,
      warehouseId: place.warehouseId,
      items: [{ productId: place.coffee, quantity: 1, unitCost: 1 }],
    });
    const a = (await create(admin, body(at))).body;
    const b = (await create(admin, body(second))).body;
    const c = (await create(admin, body(at))).body;
    expect((await call('POST', `/purchase-orders/${c.id}/cancel`, as(admin))).status).toBe(200);
    const ids = (page: { items: PurchaseOrderView[] }) => page.items.map((item) => item.id);
    expect(ids(await list(admin))).toEqual([c.id, b.id, a.id]);
    expect(ids(await list(admin, `?supplierId=${at.supplierId}`))).toEqual([c.id, a.id]);
    expect(ids(await list(admin, `?companyId=${second.companyId}`))).toEqual([b.id]);
    expect(ids(await list(admin, '?status=DRAFT'))).toEqual([b.id, a.id]);
    expect(ids(await list(admin, `?status=CANCELLED&supplierId=${at.supplierId}`))).toEqual([c.id]);
    const paged = await list(admin, '?limit=2');
    expect(ids(paged)).toEqual([c.id, b.id]);
    expect(ids(await list(admin, `?limit=2&cursor=${encodeURIComponent(String(paged.nextCursor))}`))).toEqual([a.id]);
  });
});
