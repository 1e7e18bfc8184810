import { cpf } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { call, newTenantWithAdmin, problem, type Account } from './api';

interface Supplier {
  id: string;
  name: string;
  document: string;
}

interface SupplierPage {
  data: Supplier[];
  total: number;
}

const create = (account: Account, name: string, document = cpf.generate()) =>
  call<Supplier>('POST', '/suppliers', { cookies: account.cookies, body: { name, corporateName: `${name} Ltda`, document } });
const remove = (account: Account, id: string) => call('DELETE', `/suppliers/${id}`, { cookies: account.cookies });
const patch = (account: Account, id: string, body: unknown) => call<Supplier>('PATCH', `/suppliers/${id}`, { cookies: account.cookies, body });
const list = (account: Account, query = '') => call<SupplierPage>('GET', `/suppliers${query}`, { cookies: account.cookies });

async function seed(account: Account, names: string[]): Promise<Supplier[]> {
  const created: Supplier[] = [];
  for (const name of names) {
    const response = await create(account, name);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    created.push(response.body);
  }
  return created;
}

/**
 * What the list says about the tenant: the names of a full page, its total, and the total of
 * a one-entry page (which reads the tenant's stored count instead of counting the index).
 */
async function listed(account: Account): Promise<{ names: string[]; total: number; countedTotal: number }> {
  const full = await list(account, '?limit=100');
  const one = await list(account, '?limit=1');
  return { names: full.body.data.map((supplier) => supplier.name), total: full.body.total, countedTotal: one.body.total };
}

describe('DELETE /suppliers/{id}', () => {
  it('answers 204 with no body; the supplier is gone from the list, the total and the search, and PATCH and a second DELETE are 404', async () => {
    const admin = await newTenantWithAdmin();
    const beta = (await seed(admin, ['Alpha', 'Beta', 'Gamma']))[1] as Supplier;

    const response = await remove(admin, beta.id);

    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();
    expect(response.headers.get('content-type')).toBeNull();
    expect(await listed(admin)).toEqual({ names: ['Alpha', 'Gamma'], total: 2, countedTotal: 2 });
    expect((await list(admin, '?search=beta')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
    expect(await patch(admin, beta.id, { name: 'Back' })).toMatchObject({ status: 404, body: problem(404, 'not-found') });
    expect(await remove(admin, beta.id)).toMatchObject({ status: 404, body: problem(404, 'not-found') });
  });

  it("answers 404 for another tenant's supplier and leaves it in place", async () => {
    const owner = await newTenantWithAdmin();
    const stranger = await newTenantWithAdmin();
    const [supplier] = await seed(owner, ['Acme']);

    const response = await remove(stranger, (supplier as Supplier).id);

    expect(response).toMatchObject({ status: 404, body: problem(404, 'not-found') });
    expect(await listed(owner)).toEqual({ names: ['Acme'], total: 1, countedTotal: 1 });
  });

  it('frees the document: a new supplier of the tenant may take it', async () => {
    const admin = await newTenantWithAdmin();
    const document = cpf.generate();
    const first = await create(admin, 'First', document);
    expect((await create(admin, 'Twin', document)).status).toBe(409);

    expect((await remove(admin, first.body.id)).status).toBe(204);
    const again = await create(admin, 'Second', document);

    expect(again.status).toBe(201);
    expect(await listed(admin)).toEqual({ names: ['Second'], total: 1, countedTotal: 1 });
  });

  it('of 10 parallel deletes of one supplier exactly one succeeds, the rest are 404, and the count drops by one', async () => {
    const admin = await newTenantWithAdmin();
    const target = (await seed(admin, ['Alpha', 'Beta', 'Gamma']))[1] as Supplier;

    const statuses = (await Promise.all(Array.from({ length: 10 }, () => remove(admin, target.id)))).map((response) => response.status);

    expect(statuses.filter((status) => status === 204)).toHaveLength(1);
    expect(statuses.filter((status) => status === 404)).toHaveLength(9);
    expect(await listed(admin)).toEqual({ names: ['Alpha', 'Gamma'], total: 2, countedTotal: 2 });
  });

  it('racing a PATCH that renames and re-documents it, leaves no index entry, no sentinel and an exact count', async () => {
    const admin = await newTenantWithAdmin();
    const keep = await seed(admin, ['Keep']);
    const racers = await seed(admin, ['Racer 1', 'Racer 2', 'Racer 3', 'Racer 4', 'Racer 5']);
    const newDocuments = racers.map(() => cpf.generate());

    const outcomes = await Promise.all(
      racers.map(async (racer, index) => {
        const [renamed, deleted] = await Promise.all([
          patch(admin, racer.id, { name: `Zulu ${index}`, document: newDocuments[index] }),
          remove(admin, racer.id),
        ]);
        return { patch: renamed.status, delete: deleted.status };
      }),
    );

    // The delete always wins in the end; the PATCH either came first (200) or found nothing (404).
    for (const outcome of outcomes) {
      expect(outcome.delete).toBe(204);
      expect([200, 404]).toContain(outcome.patch);
    }
    expect(await listed(admin)).toEqual({ names: keep.map((supplier) => supplier.name), total: 1, countedTotal: 1 });
    expect((await list(admin, '?search=zulu')).body.total).toBe(0);
    expect((await list(admin, '?search=racer')).body.total).toBe(0);
    // Both the old and the new documents are free again.
    for (const [index, racer] of racers.entries()) {
      expect((await create(admin, `Old ${index}`, racer.document.replace(/\D/g, ''))).status).toBe(201);
      expect((await create(admin, `New ${index}`, newDocuments[index])).status).toBe(201);
    }
    expect((await listed(admin)).countedTotal).toBe(11);
  });
});
