import { randomUUID } from 'node:crypto';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import { beforeAll, describe, expect, it } from 'vitest';
import { withRequestOrigin } from '../../lib/audit/context';
import { findImportJob } from '../../lib/imports/repository';
import { forgetCheckedFiles, runImport, runImportStep, type ImportDeps } from '../../lib/imports/engine';
import type { ImportJob, ImportKind } from '../../lib/imports/model';
import { createImportJob } from '../../lib/imports/service';
import { resumeImports } from '../../local/imports';
import { testPrincipal } from '../support/principal';
import { apiUrl, call, newTenantWithAdmin, useLocalStoreInProcess, type Account } from './api';

/**
 * CSV imports, their steps run in process against the local store as `npm start` runs them,
 * the results read over HTTP as a user would: a file imported twice leaves each record once,
 * a step run twice counts once, a dry run writes nothing and names every refused row.
 */

beforeAll(() => useLocalStoreInProcess());

const BOM = '\uFEFF';
const csv = (lines: string[]) => new TextEncoder().encode(`${BOM}${lines.join('\r\n')}\r\n`);

/** A job as POST /imports makes it, for `admin` from 203.0.113.9, whose file is `bytes`. */
async function newJob(admin: Account, kind: ImportKind, dryRun: boolean, bytes: Uint8Array): Promise<{ job: ImportJob; deps: ImportDeps }> {
  const principal = testPrincipal({ tenantId: admin.tenantId, userId: admin.userId, role: 'ADMIN', name: 'Admin' });
  const origin = { requestId: `test-${randomUUID()}`, sourceIp: '203.0.113.9', userAgent: 'vitest' };
  const job = await withRequestOrigin(origin, () => createImportJob(principal, { kind, dryRun, fileName: `${kind}.csv`, size: bytes.byteLength }, Date.now()));
  return { job, deps: { now: () => Date.now(), files: { read: () => Promise.resolve(bytes) }, stepRows: 40 } };
}

const productLines = (count: number) => [
  'Código;Descrição;Localização',
  ...Array.from({ length: count }, (_, index) => `SKU-${String(index).padStart(5, '0')};Produto ${index};Corredor ${index % 7}`),
];

/** Every item of a list route, page after page. */
async function allPages<T>(admin: Account, first: string): Promise<T[]> {
  const found: T[] = [];
  let path: string | undefined = first;
  while (path) {
    const page: Awaited<ReturnType<typeof call<T[]>>> = await call<T[]>('GET', path, { cookies: admin.cookies });
    expect(page.status).toBe(200);
    found.push(...page.body);
    path = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1]?.replace(/^https?:\/\/[^/]+/, '');
  }
  return found;
}

const allProducts = (admin: Account) => allPages<{ sku: string }>(admin, '/inventory/products?limit=100');

describe('importing products', () => {
  it('creates each row once, as the API would: the same file again creates nothing, and the list and coverage read as one by one', async () => {
    const admin = await newTenantWithAdmin();
    const file = csv(productLines(130));
    const first = await newJob(admin, 'products', false, file);
    await runImport(first.job, first.deps);
    expect(await findImportJob(admin.tenantId, first.job.id)).toMatchObject({
      status: 'succeeded',
      totalRows: 130,
      nextRow: 130,
      rowsDone: 130,
      created: 130,
      existing: 0,
      refused: 0,
      errors: [],
      ignoredColumns: ['Localização'],
      finishedAt: expect.any(String) as string,
    });

    const again = await newJob(admin, 'products', false, file);
    await runImport(again.job, again.deps);
    expect(await findImportJob(admin.tenantId, again.job.id)).toMatchObject({ status: 'succeeded', rowsDone: 130, created: 0, existing: 130, refused: 0 });

    const products = await allProducts(admin);
    expect(products.map((product) => product.sku).sort()).toEqual(Array.from({ length: 130 }, (_, index) => `SKU-${String(index).padStart(5, '0')}`));
    // The coverage dashboard lists each as a product created over HTTP is listed.
    const single = await call<{ id: string }>('POST', '/inventory/products', { cookies: admin.cookies, body: { sku: 'ONE-BY-ONE', name: 'Produto avulso' } });
    const coverage = await call<{ productId: string; sku: string; name: string }[]>('GET', '/inventory/dashboard/coverage?days=30&limit=1000', {
      cookies: admin.cookies,
    });
    expect(coverage.status).toBe(200);
    expect(coverage.body).toHaveLength(131);
    const {
      productId: _single,
      sku: _sku,
      name: _name,
      ...alone
    } = coverage.body.find((item) => item.productId === single.body.id) ?? { productId: '', sku: '', name: '' };
    for (const { productId: _id, sku: _itemSku, name: _itemName, ...item } of coverage.body) expect(item).toEqual(alone);
    // Audited as the administrator's, one entry per product, from where the job was made.
    const audit: { actor: { id: string }; sourceIp: string }[] = [];
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const query: string = `/audit-events?action=product.created&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await call<{ items: typeof audit; nextCursor: string | null }>('GET', query, { cookies: admin.cookies });
      audit.push(...page.body.items);
      cursor = page.body.nextCursor;
    }
    expect(audit).toHaveLength(131);
    expect(new Set(audit.slice(1).map((entry) => `${entry.actor.id} ${entry.sourceIp}`))).toEqual(new Set([`${admin.userId} 203.0.113.9`]));
  });

  it('counts a step once when it runs twice at the same time (a queue delivers at least once)', async () => {
    const admin = await newTenantWithAdmin();
    const { job, deps } = await newJob(admin, 'products', false, csv(productLines(30)));
    const steps = await Promise.all([runImportStep(job, 0, deps), runImportStep(job, 0, deps)]);
    expect(steps).toEqual([null, null]);
    expect(await findImportJob(admin.tenantId, job.id)).toMatchObject({ status: 'succeeded', rowsDone: 30, refused: 0 });
    const stored = await findImportJob(admin.tenantId, job.id);
    expect((stored?.created ?? 0) + (stored?.existing ?? 0)).toBe(30);
    expect(await allProducts(admin)).toHaveLength(30);
  });

  it('goes on from its next row when npm start starts again after stopping during a job', async () => {
    const admin = await newTenantWithAdmin();
    const file = csv(productLines(100));
    const { job, deps } = await newJob(admin, 'products', false, file);
    expect(await runImportStep(job, 0, deps)).toBe(40);
    // npm start stopped here; the next one finds the job running at row 40. Only this test's
    // file is readable, so a job another test file left running is not run here.
    forgetCheckedFiles();
    const log: string[] = [];
    const files = { read: (read: Pick<ImportJob, 'id'>) => (read.id === job.id ? Promise.resolve(file) : Promise.reject(new Error("not this test's job"))) };
    await resumeImports(files, (line) => log.push(line));
    expect(log).toContain(`[imports] ${job.id} goes on from row 40`);
    expect(log).toContain(`[imports] ${job.id} done`);
    expect(await findImportJob(admin.tenantId, job.id)).toMatchObject({ status: 'succeeded', rowsDone: 100, created: 100, existing: 0, refused: 0 });
    expect(await allProducts(admin)).toHaveLength(100);
  });

  it('fails a job whose file is PUT again with other rows after it started, keeping what its first steps made', async () => {
    const admin = await newTenantWithAdmin();
    let file = csv(productLines(60));
    const { job, deps } = await newJob(admin, 'products', false, file);
    const read = { ...deps, files: { read: () => Promise.resolve(file) } };
    expect(await runImportStep(job, 0, read)).toBe(40);
    // Another file under the same link, read by a step in a fresh process.
    file = csv(productLines(80));
    forgetCheckedFiles();
    expect(await runImportStep(job, 40, read)).toBeNull();
    expect(await findImportJob(admin.tenantId, job.id)).toMatchObject({
      status: 'failed',
      failure: 'The file changed after the import started: start a new import with it',
      rowsDone: 40,
      created: 40,
    });
    expect(await allProducts(admin)).toHaveLength(40);
  });

  it('fails a file without the required columns, saying which, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const { job, deps } = await newJob(admin, 'products', false, csv(['Descrição;Preço', 'Café;10,00']));
    await runImport(job, deps);
    expect(await findImportJob(admin.tenantId, job.id)).toMatchObject({
      status: 'failed',
      failure: 'The header has no column for sku (e.g. "codigo")',
      rowsDone: 0,
    });
    expect(await allProducts(admin)).toEqual([]);
  });
});

describe('the columns of a product', () => {
  it('fills every field from Portuguese headers, decimal commas and punctuated codes, and refuses a bad cell with its line and message', async () => {
    const admin = await newTenantWithAdmin();
    const lines = [
      'Código;Descrição;Unidade;GTIN/EAN;NCM;CEST;Preço de venda;Marca;Situação;Descrição complementar',
      'CAF-500;Café torrado 500 g;un;7891000315507;0901.21.00;17.096.00;"1.234,56";Pilão;Ativo;"Torra média"', // 2: every field
      'ARR-5;Arroz 5 kg;KG;;;;"18,9";;Inativo;', // 3: a few
      'ERR-1;Errado;UN;7891000315508;;;;;;', // 4: a wrong check digit
      'ERR-2;Errado;LATA;;;;;;;', // 5: an unknown unit
      'ERR-3;Errado;UN;;;;"-1,00";;;', // 6: a negative price
    ];
    const { job, deps } = await newJob(admin, 'products', false, csv(lines));
    await runImport(job, deps);
    const report = await findImportJob(admin.tenantId, job.id);
    expect(report).toMatchObject({ status: 'succeeded', totalRows: 5, created: 2, refused: 3 });
    expect(report?.errors).toEqual([
      { line: 4, field: 'GTIN/EAN', message: 'has a wrong check digit: 8 where 7 was expected' },
      { line: 5, field: 'Unidade', message: expect.stringContaining('must be one of UN') as string },
      { line: 6, field: 'Preço de venda', message: expect.any(String) as string },
    ]);
    const products = await allPages<Record<string, unknown>>(admin, '/inventory/products?status=ALL');
    expect(products).toEqual([
      expect.objectContaining({ sku: 'ARR-5', unit: 'KG', gtin: null, salePrice: 18.9, status: 'INACTIVE', description: null }),
      expect.objectContaining({
        sku: 'CAF-500',
        name: 'Café torrado 500 g',
        unit: 'UN',
        gtin: '7891000315507',
        ncm: '09012100',
        cest: '1709600',
        salePrice: 1234.56,
        brand: 'Pilão',
        status: 'ACTIVE',
        description: 'Torra média',
      }),
    ]);
  });

  it('puts a product in the category its Categoria names, the one of that name whatever its case and accents, made when there is none', async () => {
    const admin = await newTenantWithAdmin();
    const existing = await call<{ id: string }>('POST', '/inventory/categories', { cookies: admin.cookies, body: { name: 'Mercearia' } });
    expect(existing.status).toBe(201);
    const lines = [
      'Código;Descrição;Categoria',
      'CAF-500;Café torrado 500 g;MERCEARIA',
      'SUC-1;Suco de uva;Bebidas',
      'SUC-2;Suco de laranja;bebídas',
      'SEM-1;Sem categoria;',
      `ERR-1;Errado;${'x'.repeat(121)}`,
    ];
    const { job, deps } = await newJob(admin, 'products', false, csv(lines));
    await runImport(job, deps);
    const report = await findImportJob(admin.tenantId, job.id);
    expect(report).toMatchObject({ status: 'succeeded', totalRows: 5, created: 4, refused: 1 });
    expect(report?.errors).toEqual([{ line: 6, field: 'Categoria', message: 'must be at most 120 characters' }]);
    const categories = (await call<{ id: string; name: string; productCount: number }[]>('GET', '/inventory/categories', { cookies: admin.cookies })).body;
    // Rows run a few at once: the first of SUC-1 and SUC-2 to arrive names the category it makes.
    expect(categories.map(({ name, productCount }) => [name.replace('bebídas', 'Bebidas'), productCount])).toEqual([
      ['Bebidas', 2],
      ['Mercearia', 1],
    ]);
    const products = await allPages<{ sku: string; categoryId: string | null }>(admin, '/inventory/products');
    expect(Object.fromEntries(products.map((product) => [product.sku, product.categoryId]))).toEqual({
      'CAF-500': existing.body.id,
      'SEM-1': null,
      'SUC-1': categories[0]?.id,
      'SUC-2': categories[0]?.id,
    });
  });
});

describe('a dry run of suppliers', () => {
  it('names every refused row with its line, column and the API message, counts the rest, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const good = cnpj.generate();
    const taken = cnpj.generate();
    expect(
      (await call('POST', '/suppliers', { cookies: admin.cookies, body: { name: 'Já existe', corporateName: 'Já Existe Ltda', document: taken } })).status,
    ).toBe(201);
    const wrongDigits = `${good.slice(0, 12)}${good.slice(12) === '00' ? '11' : '00'}`;
    const lines = [
      'Nome;Razão Social;CNPJ/CPF;E-mail;Telefone;Ativo',
      `Café Sul;Café Sul Ltda;${cnpj.format(good)};compras@cafesul.com.br;(11) 98765-4321;Sim`, // 2: valid, punctuated document, national phone
      `Outro;Outro Ltda;${taken};;;`, // 3: already there
      `;Sem Nome Ltda;${cnpj.generate()};;;`, // 4: name missing
      `Sem razão;;${cnpj.generate()};;;`, // 5: corporate name missing
      'Sem documento;Sem Documento Ltda;;;;', // 6: document missing
      `Dígitos;Dígitos Ltda;${wrongDigits};;;`, // 7: check digits
      'Curto;Curto Ltda;12345;;;', // 8: neither CPF nor CNPJ
      `E-mail;Email Ltda;${cnpj.generate()};não é e-mail;;`, // 9: invalid e-mail
      `E-mail longo;Longo Ltda;${cnpj.generate()};${'a'.repeat(250)}@x.com;;`, // 10: e-mail too long
      `Fone;Fone Ltda;${cnpj.generate()};;123;`, // 11: phone
      `Ativo;Ativo Ltda;${cnpj.generate()};;;talvez`, // 12: not a yes or no
      `${'N'.repeat(201)};Nome Longo Ltda;${cnpj.generate()};;;`, // 13: name too long
      `"Controle\u0007";Controle Ltda;${cnpj.generate()};;;`, // 14: a control character
      `Repetido;Repetido Ltda;${good};;;`, // 15: repeats line 2
      `Sobra;Sobra Ltda;${cnpj.generate()};;;;a mais`, // 16: a cell past the header
      `Pessoa;Pessoa Física;${cpf.format(cpf.generate())};;+55 21 2345-6789;não`, // 17: valid, a CPF
    ];
    const { job, deps } = await newJob(admin, 'suppliers', true, csv(lines));
    await runImport(job, deps);
    const report = await findImportJob(admin.tenantId, job.id);
    expect(report).toMatchObject({
      status: 'succeeded',
      dryRun: true,
      totalRows: 16,
      rowsDone: 16,
      created: 2,
      existing: 1,
      refused: 13,
      errorsTruncated: false,
    });
    expect(report?.errors).toEqual([
      { line: 4, field: 'Nome', message: 'is required' },
      { line: 5, field: 'Razão Social', message: 'is required' },
      { line: 6, field: 'CNPJ/CPF', message: 'is required' },
      { line: 7, field: 'CNPJ/CPF', message: 'check digits do not match' },
      { line: 8, field: 'CNPJ/CPF', message: 'must be a CPF (11 digits) or a CNPJ (14 characters, letters allowed in the first 12) without punctuation' },
      { line: 9, field: 'E-mail', message: 'must be a valid e-mail address' },
      { line: 10, field: 'E-mail', message: 'must be at most 254 characters' },
      { line: 11, field: 'Telefone', message: 'must be a valid phone in international format, e.g. +55 11 98765-4321' },
      { line: 12, field: 'Ativo', message: 'must be true or false' },
      { line: 13, field: 'Nome', message: 'must be at most 200 characters' },
      { line: 14, field: 'Nome', message: expect.stringContaining('control') as string },
      { line: 15, field: 'CNPJ/CPF', message: 'repeats line 2: the same document' },
      { line: 16, field: '', message: 'has 7 cells but the header has 6' },
    ]);
    // Nothing written: the one supplier is the one made over HTTP.
    const suppliers = await call<{ total: number }>('GET', '/suppliers', { cookies: admin.cookies });
    expect(suppliers.body.total).toBe(1);
  });
});

describe('POST /imports, the upload, and GET /imports/{id} (npm start)', () => {
  /** POST /imports, then the file PUT where it says; the created job. */
  async function startImport(admin: Account, body: Record<string, unknown>, bytes: Uint8Array) {
    const created = await call<{ id: string; status: string; upload: { method: string; url: string; headers: Record<string, string>; expiresAt: string } }>(
      'POST',
      '/imports',
      {
        cookies: admin.cookies,
        body: { ...body, size: bytes.byteLength },
      },
    );
    expect(created.status).toBe(201);
    return created.body;
  }

  /** The file PUT to an upload link, as a browser or curl sends it (not an API call: S3's, deployed). */
  const put = async (upload: { url: string; headers: Record<string, string> }, bytes: Uint8Array) =>
    (await fetch(`${apiUrl()}${upload.url}`, { method: 'PUT', headers: upload.headers, body: Buffer.from(bytes) })).status;

  /** GET /imports/{id} until it has ended. */
  async function ended(admin: Account, id: string): Promise<Record<string, unknown>> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const job = await call<Record<string, unknown>>('GET', `/imports/${id}`, { cookies: admin.cookies });
      expect(job.status).toBe(200);
      if (job.body.status === 'succeeded' || job.body.status === 'failed' || Date.now() > deadline) return job.body;
      await new Promise((wake) => setTimeout(wake, 100));
    }
  }

  it('runs a job from its upload: waiting for the file, then its report; the same file twice leaves each product once', async () => {
    const admin = await newTenantWithAdmin();
    const file = csv(productLines(60));
    const created = await startImport(admin, { kind: 'products', fileName: 'produtos.csv' }, file);
    expect(created).toMatchObject({
      kind: 'products',
      dryRun: false,
      status: 'awaiting_upload',
      fileName: 'produtos.csv',
      size: file.byteLength,
      totalRows: null,
      rowsDone: 0,
      etaSeconds: null,
    });
    expect(created.upload).toEqual({
      method: 'PUT',
      url: expect.stringMatching(/^\/local-files\/imports\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.csv\?expires=\d+&size=\d+&signature=[\w-]+$/) as string,
      headers: { 'content-type': 'text/csv' },
      expiresAt: expect.any(String) as string,
    });
    expect(Object.keys(created)).not.toContain('tenantId');

    // Another size than the one signed, or an edited link, is refused and starts nothing.
    expect(await put(created.upload, file.subarray(1))).toBe(403);
    expect(
      await put(
        { ...created.upload, url: created.upload.url.replace(/signature=(.)/, (_match, first: string) => `signature=${first === 'x' ? 'y' : 'x'}`) },
        file,
      ),
    ).toBe(403);
    expect((await call<{ status: string }>('GET', `/imports/${created.id}`, { cookies: admin.cookies })).body.status).toBe('awaiting_upload');

    expect(await put(created.upload, file)).toBe(200);
    expect(await ended(admin, created.id)).toMatchObject({
      id: created.id,
      status: 'succeeded',
      totalRows: 60,
      rowsDone: 60,
      created: 60,
      existing: 0,
      refused: 0,
      errors: [],
      ignoredColumns: ['Localização'],
      etaSeconds: null,
    });

    const again = await startImport(admin, { kind: 'products', fileName: 'produtos.csv' }, file);
    expect(await put(again.upload, file)).toBe(200);
    expect(await ended(admin, again.id)).toMatchObject({ status: 'succeeded', created: 0, existing: 60 });
    expect(await allProducts(admin)).toHaveLength(60);
  });

  it("refuses a bad request with its problem, and another tenant's import", async () => {
    const admin = await newTenantWithAdmin();
    const bad = await call<{ errors: unknown[] }>('POST', '/imports', {
      cookies: admin.cookies,
      body: { kind: 'clients', fileName: '', size: 20 * 1024 * 1024 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { field: 'kind', message: 'must be one of suppliers, products, stock' },
      { field: 'fileName', message: 'must not be empty' },
      { field: 'size', message: 'must be at most 10485760 bytes (10 MB)' },
    ]);
    const created = await startImport(admin, { kind: 'suppliers', dryRun: true, fileName: 'fornecedores.csv' }, csv(['Nome;Razão Social;CNPJ']));
    const other = await newTenantWithAdmin();
    expect((await call('GET', `/imports/${created.id}`, { cookies: other.cookies })).status).toBe(404);
    expect((await call('GET', `/imports/${randomUUID()}`, { cookies: admin.cookies })).status).toBe(404);
  });
});
