import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { findExportJob } from '../../lib/exports/repository';
import { findImportJob } from '../../lib/imports/repository';
import { runExport, type ExportDeps } from '../../lib/exports/engine';
import { createExportJob } from '../../lib/exports/service';
import { runImport } from '../../lib/imports/engine';
import { jobs, workers } from '../../lib/routes';
import { promoteOrCreateAdmin } from '../../tools/admin/create-admin';
import { testPrincipal } from '../support/principal';
import {
  apiUrl,
  call,
  cookiesFrom,
  newTenantWithAdmin,
  registerInvitee,
  signInWithSecondFactor,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
  type Account,
} from './api';

/**
 * Background work re-checks who asked, at every step: an import or an export made by a user who
 * was then removed or demoted, or in a tenant that was then closed, fails at once with the
 * reason, its upload link takes no file, and its worker writes nothing, even when its file
 * arrives (deployed, a presigned link cannot be revoked: the worker is what refuses).
 */

beforeAll(() => useLocalStoreInProcess());

const PASSWORD = 'correct horse battery';
const csv = (lines: string[]) => new TextEncoder().encode(`\uFEFF${lines.join('\r\n')}\r\n`);
const PRODUCTS = csv(['Código;Descrição', 'BG-1;Produto um', 'BG-2;Produto dois']);
const fileOf = (bytes: Uint8Array) => ({ read: () => Promise.resolve(bytes) });

/** A second administrator of the admin's tenant, signed in. */
async function secondAdmin(admin: Account): Promise<Account> {
  const email = uniqueEmail('second');
  const registered = await registerInvitee(admin, email, PASSWORD, 'Second');
  expect(registered.status).toBe(200);
  const userId = (registered.body as { user: { id: string } }).user.id;
  expect((await call('PATCH', `/users/${userId}`, { cookies: admin.cookies, body: { role: 'ADMIN' } })).status).toBe(200);
  return { tenantId: admin.tenantId, userId, email, password: PASSWORD, cookies: cookiesFrom(registered) };
}

/** POST /imports as `account`: the job's id and its upload link. */
async function startImport(account: Account): Promise<{ id: string; upload: { url: string; headers: Record<string, string> } }> {
  const created = await call<{ id: string; upload: { url: string; headers: Record<string, string> } }>('POST', '/imports', {
    cookies: account.cookies,
    body: { kind: 'products', dryRun: false, fileName: 'produtos.csv', size: PRODUCTS.byteLength },
  });
  expect(created.status).toBe(201);
  return created.body;
}

const put = async (upload: { url: string; headers: Record<string, string> }) =>
  fetch(`${apiUrl()}${upload.url}`, { method: 'PUT', headers: upload.headers, body: Buffer.from(PRODUCTS) }).then(async (response) => ({
    status: response.status,
    text: await response.text(),
  }));

const productsOf = async (admin: Account) => (await call<unknown[]>('GET', '/inventory/products', { cookies: admin.cookies })).body;

describe('an import whose administrator loses the right to it', () => {
  it('fails at once when its user is removed: the link takes no file, the worker writes nothing, the entries keep who did what', async () => {
    const admin = await newTenantWithAdmin();
    const second = await secondAdmin(admin);
    const job = await startImport(second);
    expect((await call('DELETE', `/users/${second.userId}`, { cookies: admin.cookies })).status).toBe(204);

    const failure = 'The user who started this job was removed: the job was stopped';
    expect((await call('GET', `/imports/${job.id}`, { cookies: admin.cookies })).body).toMatchObject({ status: 'failed', failure, created: 0 });
    expect(await put(job.upload)).toEqual({ status: 403, text: `The import failed and takes no file: ${failure}` });
    // Deployed, the file would land in the bucket anyway: the worker's step is what refuses it.
    await runImport({ tenantId: admin.tenantId, id: job.id }, { now: Date.now, files: fileOf(PRODUCTS) });
    expect(await findImportJob(admin.tenantId, job.id)).toMatchObject({ status: 'failed', failure, rowsDone: 0, created: 0 });
    expect(await productsOf(admin)).toEqual([]);
    // The honest path beside it: the remaining administrator imports the same file.
    const own = await startImport(admin);
    expect((await put(own.upload)).status).toBe(200);
    // The API's process runs it once the file came (as the bucket's notice does deployed): its end, within 20 s on a busy machine.
    await expect
      .poll(async () => (await call<{ status: string }>('GET', `/imports/${own.id}`, { cookies: admin.cookies })).body.status, {
        timeout: 20_000,
        interval: 100,
      })
      .toBe('succeeded');
    expect(await productsOf(admin)).toHaveLength(2);
  });

  it('fails at once when its user becomes a member, and a job whose marker is gone still fails at its first step', async () => {
    const admin = await newTenantWithAdmin();
    const second = await secondAdmin(admin);
    const marked = await startImport(second);
    const unmarked = await startImport(second);
    // A job the removal cannot find (its marker lost): only the step's own check stands between it and the store.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.pendingJob(admin.tenantId, unmarked.id) }));
    expect((await call('PATCH', `/users/${second.userId}`, { cookies: admin.cookies, body: { role: 'MEMBER' } })).status).toBe(200);

    const failure = 'The user who started this job is no longer a tenant administrator: the job was stopped';
    expect(await findImportJob(admin.tenantId, marked.id)).toMatchObject({ status: 'failed', failure });
    expect(await findImportJob(admin.tenantId, unmarked.id)).toMatchObject({ status: 'awaiting_upload' });
    await runImport({ tenantId: admin.tenantId, id: unmarked.id }, { now: Date.now, files: fileOf(PRODUCTS) });
    expect(await findImportJob(admin.tenantId, unmarked.id)).toMatchObject({ status: 'failed', failure, rowsDone: 0 });
    expect(await productsOf(admin)).toEqual([]);
  });
});

describe('an export whose user is removed', () => {
  it('fails, and its run writes no file; an export of another member runs', async () => {
    const admin = await newTenantWithAdmin();
    const second = await secondAdmin(admin);
    const principalOf = (account: Account) => testPrincipal({ tenantId: account.tenantId, userId: account.userId, role: 'ADMIN', name: 'Someone' });
    const gone = await createExportJob(principalOf(second), { kind: 'suppliers' }, Date.now());
    const kept = await createExportJob(principalOf(admin), { kind: 'suppliers' }, Date.now());
    expect((await call('DELETE', `/users/${second.userId}`, { cookies: admin.cookies })).status).toBe(204);

    const written: string[] = [];
    const deps: ExportDeps = {
      now: Date.now,
      files: { create: (job) => ({ write: async () => void written.push(job.id), end: async () => undefined, abort: async () => undefined }) },
    };
    await runExport(gone, deps);
    await runExport(kept, deps);
    expect(await findExportJob(admin.tenantId, gone.id)).toMatchObject({
      status: 'failed',
      failure: 'The user who started this job was removed: the job was stopped',
    });
    expect(await findExportJob(admin.tenantId, kept.id)).toMatchObject({ status: 'done' });
    expect(new Set(written)).toEqual(new Set([kept.id]));
    // Each job's marker went with its end.
    for (const id of [gone.id, kept.id])
      expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.pendingJob(admin.tenantId, id) }))).Item).toBeUndefined();
  });
});

describe('a closed tenant', () => {
  it('fails its pending jobs at once, and its upload links and workers write nothing into it', { timeout: 60_000 }, async () => {
    const rootEmail = uniqueEmail('root');
    const root = await promoteOrCreateAdmin(
      { email: rootEmail, password: PASSWORD, name: 'Root', tenantName: uniqueName('platform'), promote: false },
      Date.now(),
    );
    const signedIn = await signInWithSecondFactor(rootEmail, PASSWORD, root.secondFactor.secret);
    expect(signedIn.response.status).toBe(200);
    const admin = await newTenantWithAdmin();
    const job = await startImport(admin);
    const exported = await createExportJob(
      testPrincipal({ tenantId: admin.tenantId, userId: admin.userId, role: 'ADMIN', name: 'Admin' }),
      { kind: 'products' },
      Date.now(),
    );
    expect((await call('POST', `/tenants/${admin.tenantId}/close`, { cookies: signedIn.cookies })).status).toBe(200);

    const failure = 'The tenant was closed: its jobs were stopped';
    expect(await findImportJob(admin.tenantId, job.id)).toMatchObject({ status: 'failed', failure });
    expect(await findExportJob(admin.tenantId, exported.id)).toMatchObject({ status: 'failed', failure });
    expect((await put(job.upload)).status).toBe(403);
    await runImport({ tenantId: admin.tenantId, id: job.id }, { now: Date.now, files: fileOf(PRODUCTS) });
    expect(await findImportJob(admin.tenantId, job.id)).toMatchObject({ status: 'failed', failure, rowsDone: 0 });
    // No product of the file was written: the SKUs are free in the tenant.
    for (const sku of ['BG-1', 'BG-2'])
      expect((await db().send(new GetCommand({ TableName: tableName(), Key: keys.productSku(admin.tenantId, sku) }))).Item).toBeUndefined();
  });
});

describe('every background job', () => {
  /**
   * What each job does for a tenant that is not ACTIVE, decided once per job: a job added to the
   * manifest without a decision here fails this test. The tenant's own jobs stop (the scenarios
   * above); the platform's act on closed tenants by design.
   */
  const CLOSED_TENANT_RULES: Record<keyof typeof workers | keyof typeof jobs, string> = {
    importWorker: 'fails the job and writes nothing (lib/background/authority, tested above)',
    exportWorker: 'fails the job and writes no file (lib/background/authority, tested above)',
    deliveryWorker: 'delivers the events recorded while the tenant was active; a closed tenant records no new one',
    tenantJobWorker:
      'a platform job: exports a closed tenant (the point of an export before the deletion) and deletes it; stops an export once the deletion started',
    tenantDeletion: 'a platform job: starts the deletion of closed tenants that are due',
    salesRollup: 'rolls up the sales recorded while the tenant was active; writes no coverage marker for a tenant being deleted',
    integrityCheck: 'a platform job that only reads: checks every tenant, closed ones included, whose records must stay consistent until deleted',
  };

  it('has a decided rule for a closed tenant', () => {
    expect(Object.keys(CLOSED_TENANT_RULES).sort()).toEqual([...Object.keys(workers), ...Object.keys(jobs)].sort());
  });
});
