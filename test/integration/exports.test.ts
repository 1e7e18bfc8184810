import { randomUUID } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpf } from 'cpf-cnpj-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRow } from '../../lib/csv/write';
import { findExportJob } from '../../lib/exports/repository';
import { dayOf } from '../../lib/domain/days';
import { runExport } from '../../lib/exports/engine';
import { createExportJob } from '../../lib/exports/service';
import { exportDownloadsAt, exportFileKey, exportFilesAt } from '../../lib/exports/storage';
import { withLocalFiles } from '../../local/files';
import { testPrincipal } from '../support/principal';
import { apiUrl, call, cookiesFrom, newTenantWithAdmin, problem, registerInvitee, uniqueEmail, useLocalStoreInProcess, type Account } from './api';

/**
 * CSV exports over HTTP, as a user runs them: POST /exports, GET /exports/{id} until it is done
 * (npm start runs the job in its process with the deployed worker's code), then the file from
 * its download link. The files are compared whole, byte for byte after the BOM.
 */

beforeAll(() => useLocalStoreInProcess());

interface ExportJobView {
  id: string;
  kind: string;
  status: string;
  from: string | null;
  to: string | null;
  rows: number;
  createdAt: string;
  finishedAt: string | null;
  failure: string | null;
  download: { url: string; expiresAt: string; fileName: string } | null;
}

const BOM = '\uFEFF';
const lines = (...rows: (string | null)[][]) => BOM + rows.map((cells) => csvRow(cells)).join('');

async function startExport(account: Account, body: Record<string, unknown>): Promise<ExportJobView> {
  const created = await call<ExportJobView>('POST', '/exports', { cookies: account.cookies, body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** GET /exports/{id} until it has ended. */
async function ended(account: Account, id: string): Promise<ExportJobView> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = await call<ExportJobView>('GET', `/exports/${id}`, { cookies: account.cookies });
    expect(job.status).toBe(200);
    if (job.body.status === 'done' || job.body.status === 'failed' || Date.now() > deadline) return job.body;
    await new Promise((wake) => setTimeout(wake, 100));
  }
}

/** The file of a done job, as a browser follows its link (not an API call: S3's, deployed). */
async function download(job: ExportJobView): Promise<{ status: number; type: string | null; disposition: string | null; bytes: Uint8Array }> {
  const response = await fetch(`${apiUrl()}${job.download?.url ?? ''}`);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    disposition: response.headers.get('content-disposition'),
    bytes: new Uint8Array(await response.arrayBuffer()),
  };
}

const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
const today = () => dayOf(Date.now(), 'America/Sao_Paulo');

async function member(admin: Account): Promise<Account> {
  const email = uniqueEmail('member');
  const registered = await registerInvitee(admin, email, 'member password 1', 'Member');
  expect(registered.status).toBe(200);
  return {
    tenantId: admin.tenantId,
    userId: (registered.body as { user: { id: string } }).user.id,
    email,
    password: 'member password 1',
    cookies: cookiesFrom(registered),
  };
}

describe('exporting suppliers', () => {
  it('writes every supplier by name, accents kept and a formula defused, downloadable as an attachment, and imports back as already there', async () => {
    const admin = await newTenantWithAdmin();
    const documents = [cpf.generate(), cpf.generate(), cpf.generate()];
    const bodies = [
      { name: 'Açúcar União', corporateName: 'Açúcar União Comércio LTDA', document: documents[0], email: 'vendas@uniao.example.com', phone: '+5511987654321' },
      { name: '=HYPERLINK("http://x")', corporateName: 'Fórmula; Aspas "LTDA"', document: documents[1], active: false },
      { name: 'Zeta', corporateName: 'Zeta SA', document: documents[2], phone: '+552134567890' },
    ];
    for (const body of bodies) expect((await call('POST', '/suppliers', { cookies: admin.cookies, body })).status).toBe(201);

    const created = await startExport(admin, { kind: 'suppliers' });
    expect(created).toEqual({
      id: expect.any(String) as string,
      kind: 'suppliers',
      status: 'queued',
      from: null,
      to: null,
      rows: 0,
      createdAt: expect.any(String) as string,
      finishedAt: null,
      failure: null,
      download: null,
    });
    const done = await ended(admin, created.id);
    const fileName = `fornecedores-${created.createdAt.slice(0, 10)}.csv`;
    expect(done).toEqual({
      ...created,
      status: 'done',
      rows: 3,
      finishedAt: expect.any(String) as string,
      download: {
        url: expect.stringMatching(
          /^\/local-files\/exports\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.csv\?expires=\d+&name=[\w.-]+&type=text%2Fcsv%3B\+charset%3Dutf-8&signature=[\w-]+$/,
        ) as string,
        expiresAt: expect.any(String) as string,
        fileName,
      },
    });

    const file = await download(done);
    expect(file.status).toBe(200);
    expect(file.type).toBe('text/csv; charset=utf-8');
    expect(file.disposition).toBe(`attachment; filename="${fileName}"`);
    const formatted = (document: string) => `${document.slice(0, 3)}.${document.slice(3, 6)}.${document.slice(6, 9)}-${document.slice(9)}`;
    const content = text(file.bytes);
    expect(content).toBe(
      lines(
        ['Nome', 'Razão social', 'CNPJ/CPF', 'E-mail', 'Telefone', 'Ativo'],
        ['=HYPERLINK("http://x")', 'Fórmula; Aspas "LTDA"', formatted(documents[1] as string), null, null, 'não'],
        ['Açúcar União', 'Açúcar União Comércio LTDA', formatted(documents[0] as string), 'vendas@uniao.example.com', '(11) 98765-4321', 'sim'],
        ['Zeta', 'Zeta SA', formatted(documents[2] as string), null, '(21) 3456-7890', 'sim'],
      ),
    );
    // As written: the formula defused with a quote, the cell with `;` and quotes quoted.
    expect(content.split('\r\n').slice(1, 4)).toEqual([
      `"'=HYPERLINK(""http://x"")";"Fórmula; Aspas ""LTDA""";${formatted(documents[1] as string)};;;não`,
      `Açúcar União;Açúcar União Comércio LTDA;${formatted(documents[0] as string)};vendas@uniao.example.com;(11) 98765-4321;sim`,
      `Zeta;Zeta SA;${formatted(documents[2] as string)};;(21) 3456-7890;sim`,
    ]);

    // A tampered link is refused, and so is one of another key.
    const tampered = (done.download?.url ?? '').replace(/signature=(.)/, (_match, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`);
    expect((await fetch(`${apiUrl()}${tampered}`)).status).toBe(403);
    expect((await fetch(`${apiUrl()}${(done.download?.url ?? '').replace(/name=[^&]+/, 'name=other.csv')}`)).status).toBe(403);

    // Imported back in a dry run: every row is already there, none refused.
    const imported = await call<{ id: string; upload: { url: string; headers: Record<string, string> } }>('POST', '/imports', {
      cookies: admin.cookies,
      body: { kind: 'suppliers', dryRun: true, fileName, size: file.bytes.byteLength },
    });
    expect(imported.status).toBe(201);
    expect(
      (await fetch(`${apiUrl()}${imported.body.upload.url}`, { method: 'PUT', headers: imported.body.upload.headers, body: Buffer.from(file.bytes) })).status,
    ).toBe(200);
    const deadline = Date.now() + 20_000;
    let report: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      report = (await call<Record<string, unknown>>('GET', `/imports/${imported.body.id}`, { cookies: admin.cookies })).body;
      if (report.status === 'succeeded' || report.status === 'failed') break;
      await new Promise((wake) => setTimeout(wake, 100));
    }
    expect(report).toMatchObject({ status: 'succeeded', totalRows: 3, rowsDone: 3, created: 0, existing: 3, refused: 0, errors: [], ignoredColumns: [] });
  });
});

describe('exporting products and the stock history', () => {
  it('writes each product with its total and one column per warehouse, and the movements of the period only, exact with a decimal comma', async () => {
    const admin = await newTenantWithAdmin();
    const post = async <T>(path: string, body: Record<string, unknown>) => {
      const response = await call<T>('POST', path, { cookies: admin.cookies, body });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return response.body;
    };
    const north = await post<{ id: string }>('/inventory/warehouses', { name: 'Depósito Norte' });
    const south = await post<{ id: string }>('/inventory/warehouses', { name: 'Central Sul' });
    const bolt = await post<{ id: string }>('/inventory/products', { sku: 'PAR-001', name: 'Parafuso ½"', unit: 'KG' });
    await post('/inventory/products', { sku: 'PAR-002', name: '@SUM(A1)' });
    const inside = await post<{ id: string }>('/inventory/movements', {
      productId: bolt.id,
      warehouseId: north.id,
      type: 'IN',
      quantity: 12.5,
      unitCost: 3.1234,
      occurredAt: '2026-01-10T15:00:00.000Z',
    });
    const later = await post<{ id: string }>('/inventory/movements', {
      productId: bolt.id,
      warehouseId: south.id,
      type: 'IN',
      quantity: 0.75,
      unitCost: 2,
      occurredAt: '2026-01-31T23:30:00.000Z',
    });
    const outside = await post<{ id: string }>('/inventory/movements', {
      productId: bolt.id,
      warehouseId: north.id,
      type: 'OUT',
      quantity: 2.25,
      occurredAt: '2026-02-15T12:00:00.000Z',
    });

    const products = await ended(admin, (await startExport(admin, { kind: 'products' })).id);
    expect(products).toMatchObject({ status: 'done', rows: 2, from: null, to: null, failure: null });
    expect(text((await download(products)).bytes)).toBe(
      lines(
        [
          'Código',
          'Descrição',
          'Unidade',
          'GTIN/EAN',
          'NCM',
          'CEST',
          'Preço de venda',
          'Marca',
          'Categoria',
          'Situação',
          'Descrição complementar',
          'Saldo total',
          'Saldo em Central Sul',
          'Saldo em Depósito Norte',
        ],
        ['PAR-001', 'Parafuso ½"', 'KG', null, null, null, null, null, null, 'Ativo', null, '11', '0,75', '10,25'],
        ['PAR-002', '@SUM(A1)', 'UN', null, null, null, null, null, null, 'Ativo', null, '0', '0', '0'],
      ),
    );
    expect(text((await download(products)).bytes).split('\r\n')[2]).toBe("PAR-002;'@SUM(A1);UN;;;;;;;Ativo;;0;0;0");

    // January in São Paulo (UTC-3): 31 January 23:30 UTC is 20:30 there, inside; February is not.
    const history = await ended(admin, (await startExport(admin, { kind: 'stock-history', from: '2026-01-01', to: '2026-01-31' })).id);
    expect(history).toMatchObject({
      status: 'done',
      rows: 2,
      from: '2026-01-01',
      to: '2026-01-31',
      download: { fileName: 'movimentacoes-2026-01-01-a-2026-01-31.csv' },
    });
    const file = text((await download(history)).bytes);
    expect(file).toBe(
      lines(
        ['Data', 'Tipo', 'Código', 'Produto', 'Depósito', 'Quantidade', 'Custo unitário', 'Saldo após', 'Custo médio após', 'ID da movimentação'],
        ['2026-01-31T23:30:00.000Z', 'Entrada', 'PAR-001', 'Parafuso ½"', 'Central Sul', '0,75', '2', '0,75', '2', later.id],
        ['2026-01-10T15:00:00.000Z', 'Entrada', 'PAR-001', 'Parafuso ½"', 'Depósito Norte', '12,5', '3,1234', '12,5', '3,1234', inside.id],
      ),
    );
    expect(file).not.toContain(outside.id);
  });
});

describe('exporting the audit trail', () => {
  it("writes the tenant's entries of the period with their origins, for a tenant administrator only", async () => {
    const admin = await newTenantWithAdmin();
    const supplier = await call<{ id: string }>('POST', '/suppliers', {
      cookies: admin.cookies,
      body: { name: 'Auditado', corporateName: 'Auditado LTDA', document: cpf.generate() },
    });
    const day = today();
    const job = await ended(admin, (await startExport(admin, { kind: 'audit', from: day, to: day })).id);
    expect(job).toMatchObject({ status: 'done', failure: null, download: { fileName: `auditoria-${day}-a-${day}.csv` } });
    const trail = await call<{
      items: {
        id: string;
        occurredAt: string;
        action: string;
        actor: { type: string; id: string | null; name: string | null };
        resource: { type: string; id: string | null };
        requestId: string;
        sourceIp: string | null;
        userAgent: string | null;
        changes: unknown;
      }[];
    }>('GET', `/audit-events?from=${day}&to=${day}&limit=100`, { cookies: admin.cookies });
    expect(trail.status).toBe(200);
    const rows = trail.body.items.map((entry) => [
      entry.occurredAt,
      entry.action,
      entry.actor.name,
      entry.actor.type,
      entry.actor.id,
      entry.resource.type,
      entry.resource.id,
      entry.sourceIp,
      entry.userAgent,
      entry.requestId,
      entry.changes === null ? null : JSON.stringify(entry.changes),
    ]);
    expect(job.rows).toBe(rows.length);
    expect(text((await download(job)).bytes)).toBe(
      lines(
        ['Data', 'Ação', 'Autor', 'Tipo de autor', 'ID do autor', 'Recurso', 'ID do recurso', 'IP', 'Navegador', 'ID da requisição', 'Alterações'],
        ...rows,
      ),
    );
    expect(rows.map((row) => row[1])).toEqual(expect.arrayContaining(['export.created', 'supplier.created', 'user.registered']));
    expect(rows.find((row) => row[1] === 'supplier.created')?.slice(1, 7)).toEqual([
      'supplier.created',
      'Admin',
      'user',
      admin.userId,
      'supplier',
      supplier.body.id,
    ]);

    // A member may export what it can read, not the trail; nor read the administrator's export.
    const someone = await member(admin);
    expect(await call('POST', '/exports', { cookies: someone.cookies, body: { kind: 'audit', from: day, to: day } })).toMatchObject({
      status: 403,
      body: problem(403, 'forbidden'),
    });
    expect(await call('GET', `/exports/${job.id}`, { cookies: someone.cookies })).toMatchObject({ status: 404, body: problem(404, 'not-found') });
    const adminsSuppliers = await startExport(admin, { kind: 'suppliers' });
    expect(await call('GET', `/exports/${adminsSuppliers.id}`, { cookies: someone.cookies })).toMatchObject({ status: 404, body: problem(404, 'not-found') });
    const own = await ended(someone, (await startExport(someone, { kind: 'suppliers' })).id);
    expect(own).toMatchObject({ status: 'done', rows: 1 });
    // The administrator reads every export of the tenant.
    expect(await call('GET', `/exports/${own.id}`, { cookies: admin.cookies })).toMatchObject({ status: 200, body: { id: own.id, status: 'done' } });
  });
});

describe('refusals', () => {
  it('answers 400 naming the field for a bad kind or period, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const refused = async (body: Record<string, unknown>, errors: { field: string; message: string }[]) => {
      const response = await call('POST', '/exports', { cookies: admin.cookies, body });
      expect(response).toMatchObject({ status: 400, body: problem(400, 'validation', { errors }) });
    };
    await refused({ kind: 'clients' }, [{ field: 'kind', message: 'must be one of suppliers, products, stock-history, audit' }]);
    await refused({ kind: 'suppliers', from: '2026-01-01' }, [{ field: 'from', message: 'unknown field' }]);
    await refused({ kind: 'stock-history' }, [
      { field: 'from', message: 'is required' },
      { field: 'to', message: 'is required' },
    ]);
    await refused({ kind: 'audit', from: '2026-02-30', to: '2026-03-01' }, [{ field: 'from', message: 'must be a day written YYYY-MM-DD' }]);
    await refused({ kind: 'audit', from: '2026-03-01', to: '2026-02-01' }, [{ field: 'to', message: 'must not be before from' }]);
    await refused({ kind: 'stock-history', from: '2025-01-01', to: '2026-01-03' }, [{ field: 'to', message: 'must be at most 366 days after from' }]);
    await refused({ kind: 'products', extra: true }, [{ field: 'extra', message: expect.any(String) as string }]);
    // Nothing was written: the trail holds the registration and nothing of an export.
    const trail = await call<{ items: { action: string }[] }>('GET', '/audit-events?resourceType=export', { cookies: admin.cookies });
    expect(trail).toMatchObject({ status: 200, body: { items: [] } });
  });

  it("answers 404 for another tenant's export and an unknown id", async () => {
    const admin = await newTenantWithAdmin();
    const job = await startExport(admin, { kind: 'products' });
    const other = await newTenantWithAdmin();
    expect(await call('GET', `/exports/${job.id}`, { cookies: other.cookies })).toMatchObject({ status: 404, body: problem(404, 'not-found') });
    expect((await call('GET', `/exports/${randomUUID()}`, { cookies: admin.cookies })).status).toBe(404);
  });

  it('fails a job past the row cap, asking for a shorter period, and leaves no file', async () => {
    const admin = await newTenantWithAdmin();
    for (const name of ['Um', 'Dois', 'Três'])
      expect(
        (await call('POST', '/suppliers', { cookies: admin.cookies, body: { name, corporateName: `${name} LTDA`, document: cpf.generate() } })).status,
      ).toBe(201);
    const principal = testPrincipal({ tenantId: admin.tenantId, userId: admin.userId, role: 'ADMIN', name: 'Admin' });
    const job = await createExportJob(principal, { kind: 'suppliers' }, Date.now());
    const directory = mkdtempSync(join(tmpdir(), 'exports-cap-'));
    try {
      await runExport(job, { now: () => Date.now(), files: exportFilesAt({ folder: directory, secret: 'secret' }), maxRows: 2 });
      expect(await findExportJob(admin.tenantId, job.id)).toMatchObject({
        status: 'failed',
        failure: 'The export has more than 2 rows: choose a shorter period',
        finishedAt: expect.any(String) as string,
      });
      await expect(import('node:fs/promises').then((fs) => fs.readdir(join(directory, 'exports', admin.tenantId)))).resolves.toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('local download links', () => {
  const directory = mkdtempSync(join(tmpdir(), 'exports-links-'));
  let clock = Date.parse('2026-11-26T12:00:00.000Z');
  let server: Server;
  let origin = '';
  beforeAll(async () => {
    server = createServer(
      withLocalFiles((_request, response) => response.writeHead(404).end(), {
        secret: 'link secret',
        directory,
        now: () => clock,
        accepts: () => Promise.resolve('no uploads here'),
        onUploaded: () => undefined,
      }),
    );
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => {
    server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('serves the file within 15 minutes and refuses the link after', async () => {
    const job = { tenantId: randomUUID(), id: randomUUID() };
    mkdirSync(join(directory, 'exports', job.tenantId), { recursive: true });
    writeFileSync(join(directory, exportFileKey(job)), `${BOM}Nome\r\n`);
    const link = await exportDownloadsAt({ folder: directory, secret: 'link secret' }).downloadLink(job, 'fornecedores-2026-11-26.csv', clock);
    expect(link.expiresAt).toBe('2026-11-26T12:15:00.000Z');
    const within = await fetch(`${origin}${link.url}`);
    expect([within.status, within.headers.get('content-disposition'), text(new Uint8Array(await within.arrayBuffer()))]).toEqual([
      200,
      'attachment; filename="fornecedores-2026-11-26.csv"',
      `${BOM}Nome\r\n`,
    ]);
    clock += 15 * 60 * 1000 + 1000;
    const after = await fetch(`${origin}${link.url}`);
    expect([after.status, await after.text()]).toEqual([403, 'The download link has expired: ask the API for a new one']);
    // A link signed with another key is refused.
    const forged = await exportDownloadsAt({ folder: directory, secret: 'another secret' }).downloadLink(job, 'fornecedores-2026-11-26.csv', clock);
    expect((await fetch(`${origin}${forged.url}`)).status).toBe(403);
  });
});
