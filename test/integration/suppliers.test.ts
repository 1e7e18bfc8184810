import { cnpj, cpf } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { call, cookiesFrom, newTenantWithAdmin, problem, registerInvitee, uniqueEmail, type Account } from './api';

interface Supplier {
  id: string;
  name: string;
  corporateName: string;
  document: string;
  email: string | null;
  phone: string | null;
  active: boolean;
}

interface SupplierPage {
  data: Supplier[];
  total: number;
  page: number;
  limit: number;
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A valid create body. The default document is a CPF: digits only, so that no random
 * letters of an alphanumeric CNPJ can match a test's text search by chance.
 */
const valid = (override: Record<string, unknown> = {}) => ({ name: 'Acme', corporateName: 'Acme Comércio LTDA', document: cpf.generate(), ...override });

const createSupplier = (account: Account, body: Record<string, unknown>) => call<Supplier>('POST', '/suppliers', { cookies: account.cookies, body });
const patchSupplier = (account: Account, id: string, body: unknown) => call<Supplier>('PATCH', `/suppliers/${id}`, { cookies: account.cookies, body });
const getSupplier = (account: Account, id: string) => call<Supplier>('GET', `/suppliers/${id}`, { cookies: account.cookies });
const listSuppliers = (account: Account, query = '') => call<SupplierPage>('GET', `/suppliers${query}`, { cookies: account.cookies });
const search = (account: Account, term: string, extra = '') => listSuppliers(account, `?search=${encodeURIComponent(term)}${extra}`);

/** Create suppliers one after the other; their bodies, in creation order. */
async function seed(account: Account, bodies: Record<string, unknown>[]): Promise<Supplier[]> {
  const created: Supplier[] = [];
  for (const body of bodies) {
    const response = await createSupplier(account, valid(body));
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    created.push(response.body);
  }
  return created;
}

const seedNames = (account: Account, names: string[]) =>
  seed(
    account,
    names.map((name) => ({ name })),
  );

/** The created suppliers in the order the list must show them: the given names' order. */
const inOrder = (suppliers: Supplier[], names: string[]) => names.map((name) => suppliers.find((supplier) => supplier.name === name) as Supplier);

const validationError = (field: string) => problem(400, 'validation', { errors: expect.arrayContaining([expect.objectContaining({ field })]) });

describe('POST /suppliers', () => {
  it('creates an active supplier and answers the full shape, document formatted', async () => {
    const admin = await newTenantWithAdmin();
    // cnpj.generate() may give an alphanumeric CNPJ; the formatted shape is the same.
    const document = cnpj.generate();
    const response = await createSupplier(admin, { name: '  Acme  ', corporateName: ' Acme Comércio LTDA ', document });

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID_V4),
      name: 'Acme',
      corporateName: 'Acme Comércio LTDA',
      document: cnpj.format(document),
      email: null,
      phone: null,
      active: true,
    });
    expect(response.body.document).toMatch(/^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-[0-9]{2}$/);
  });

  it('keeps the e-mail lower-cased, the phone as E.164, active false and formats a CPF', async () => {
    const admin = await newTenantWithAdmin();
    const document = cpf.generate();
    const response = await createSupplier(admin, valid({ document, email: 'Compras@Acme.Example', phone: '+55 (11) 98765-4321', active: false }));

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(UUID_V4),
      name: 'Acme',
      corporateName: 'Acme Comércio LTDA',
      document: cpf.format(document),
      email: 'compras@acme.example',
      phone: '+5511987654321',
      active: false,
    });
    expect(response.body.document).toMatch(/^\d{3}\.\d{3}\.\d{3}-\d{2}$/);
  });

  it.each([
    ['12ABC34501DE35', '12.ABC.345/01DE-35'],
    ['12abc34501de35', '12.ABC.345/01DE-35'],
    ['11222333000181', '11.222.333/0001-81'],
    ['52998224725', '529.982.247-25'],
  ])('formats the document %s as %s', async (document, formatted) => {
    const admin = await newTenantWithAdmin();
    const response = await createSupplier(admin, valid({ document }));
    expect(response.status).toBe(201);
    expect(response.body.document).toBe(formatted);
  });

  it('accepts names and corporate names of 200 characters', async () => {
    const admin = await newTenantWithAdmin();
    const response = await createSupplier(admin, valid({ name: 'n'.repeat(200), corporateName: 'c'.repeat(200) }));
    expect(response.status).toBe(201);
    expect(response.body).toEqual(expect.objectContaining({ name: 'n'.repeat(200), corporateName: 'c'.repeat(200) }));
  });

  it.each([
    ['a missing name', { name: undefined }, 'name'],
    ['a missing corporate name', { corporateName: undefined }, 'corporateName'],
    ['a missing document', { document: undefined }, 'document'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a blank corporate name', { corporateName: '' }, 'corporateName'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a corporate name over 200 characters', { corporateName: 'c'.repeat(201) }, 'corporateName'],
    ['a bad check digit', { document: '11222333000182' }, 'document'],
    ['a repeated-digit document', { document: '11111111111' }, 'document'],
    ['a punctuated CNPJ', { document: '11.222.333/0001-81' }, 'document'],
    ['a punctuated CPF', { document: '529.982.247-25' }, 'document'],
    ['a document that is a number', { document: 52998224725 }, 'document'],
    ['a phone without the leading plus', { phone: '11 98765-4321' }, 'phone'],
    ['a phone that is too short', { phone: '+55 11 9876' }, 'phone'],
    ['a bad e-mail', { email: 'compras@' }, 'email'],
    ['a null e-mail', { email: null }, 'email'],
    ['active as a string', { active: 'yes' }, 'active'],
    ['active as a number', { active: 1 }, 'active'],
    ['an unknown field', { status: 'ACTIVE' }, 'status'],
    ['an id', { id: '7f9c24e8-3b5a-4f7e-9d8c-1a2b3c4d5e6f' }, 'id'],
  ])('answers 400 for %s and creates nothing', async (_case, override, field) => {
    const admin = await newTenantWithAdmin();
    const response = await createSupplier(admin, valid(override));

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(validationError(field));
    expect((await listSuppliers(admin)).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
  });

  it('names every invalid field at once', async () => {
    const admin = await newTenantWithAdmin();
    const response = await createSupplier(admin, { document: '123', phone: '123', extra: true });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      problem(400, 'validation', {
        errors: expect.arrayContaining([
          { field: 'name', message: 'is required' },
          { field: 'corporateName', message: 'is required' },
          expect.objectContaining({ field: 'document' }),
          expect.objectContaining({ field: 'phone' }),
          { field: 'extra', message: 'unknown field' },
        ]),
      }),
    );
  });

  it('answers 409 for a document the tenant already uses, and 201 for it in another tenant', async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const document = cnpj.generate();
    const first = await createSupplier(a, valid({ name: 'First', document }));
    expect(first.status).toBe(201);

    const again = await createSupplier(a, valid({ name: 'Again', document }));
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toBe('application/problem+json');
    expect(again.body).toEqual(problem(409, 'conflict'));

    const otherTenant = await createSupplier(b, valid({ name: 'Other', document }));
    expect(otherTenant.status).toBe(201);
    expect(otherTenant.body.document).toBe(cnpj.format(document));

    expect((await listSuppliers(a)).body).toEqual({ data: [first.body], total: 1, page: 1, limit: 10 });
    expect((await listSuppliers(b)).body).toEqual({ data: [otherTenant.body], total: 1, page: 1, limit: 10 });
  });

  it('gives exactly one 201 for 10 parallel creates of one document in a tenant', async () => {
    const admin = await newTenantWithAdmin();
    const document = cnpj.generate();
    const responses = await Promise.all(Array.from({ length: 10 }, (_, index) => createSupplier(admin, valid({ name: `Race ${index}`, document }))));
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(9);
    const list = await listSuppliers(admin);
    expect(list.body.total).toBe(1);
    expect(list.body.data).toHaveLength(1);
  });

  it('counts every one of 12 parallel creates in a tenant', async () => {
    const admin = await newTenantWithAdmin();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) => createSupplier(admin, valid({ name: `Parallel ${String(index).padStart(2, '0')}` }))),
    );
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 12 }, () => 201));

    // A page that ends before the index does reads the count: it must be exact.
    const page = await listSuppliers(admin, '?limit=5');
    expect(page.body).toEqual({ data: responses.slice(0, 5).map((response) => response.body), total: 12, page: 1, limit: 5 });
  });

  it('answers 401 without a session', async () => {
    const response = await call('POST', '/suppliers', { body: valid() });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(problem(401, 'unauthorized'));
  });
});

describe('PATCH /suppliers/{id}', () => {
  it('renames a supplier, which moves it in the order', async () => {
    const admin = await newTenantWithAdmin();
    const [alfa, beta, gama] = await seedNames(admin, ['Alfa', 'Beta', 'Gama']);

    const response = await patchSupplier(admin, alfa!.id, { name: 'Zulu Atacado' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({ ...alfa, name: 'Zulu Atacado' });

    expect((await listSuppliers(admin)).body).toEqual({ data: [beta, gama, response.body], total: 3, page: 1, limit: 10 });
    expect((await search(admin, 'alfa')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
    expect((await search(admin, 'zulu')).body).toEqual({ data: [response.body], total: 1, page: 1, limit: 10 });
  });

  it('updates every field at once', async () => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{ name: 'Antes', email: 'antes@example.com' }]);
    const document = cpf.generate();
    const response = await patchSupplier(admin, supplier!.id, {
      name: 'Depois',
      corporateName: 'Depois Indústria S.A.',
      document,
      email: 'Depois@Example.com',
      phone: '+55 31 99876-5432',
      active: false,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: supplier!.id,
      name: 'Depois',
      corporateName: 'Depois Indústria S.A.',
      document: cpf.format(document),
      email: 'depois@example.com',
      phone: '+5531998765432',
      active: false,
    });
    expect((await listSuppliers(admin)).body.data).toEqual([response.body]);
  });

  it('clears the e-mail and the phone with null, and search stops finding them', async () => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{ email: 'vendas@acme.example', phone: '+55 11 98765-4321' }]);
    expect((await search(admin, 'vendas@')).body.total).toBe(1);

    const response = await patchSupplier(admin, supplier!.id, { email: null, phone: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...supplier, email: null, phone: null });

    expect((await listSuppliers(admin)).body.data).toEqual([response.body]);
    expect((await search(admin, 'vendas@')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
    expect((await search(admin, '98765-4321')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
  });

  it('toggles active alone and keeps everything else', async () => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{ email: 'x@acme.example' }]);
    const off = await patchSupplier(admin, supplier!.id, { active: false });
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ ...supplier, active: false });
    const on = await patchSupplier(admin, supplier!.id, { active: true });
    expect(on.body).toEqual(supplier);
    expect((await search(admin, 'x@acme')).body.data).toEqual([supplier]);
  });

  it('changes the document, freeing the old one for another supplier', async () => {
    const admin = await newTenantWithAdmin();
    const oldDocument = cnpj.generate();
    const newDocument = cnpj.generate();
    const [supplier] = await seed(admin, [{ name: 'Mover', document: oldDocument }]);

    const response = await patchSupplier(admin, supplier!.id, { document: newDocument });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...supplier, document: cnpj.format(newDocument) });

    const reuse = await createSupplier(admin, valid({ name: 'Reuser', document: oldDocument }));
    expect(reuse.status).toBe(201);
    // The new document is now held: neither a create nor another supplier's change may take it.
    expect((await createSupplier(admin, valid({ document: newDocument }))).status).toBe(409);
    expect((await patchSupplier(admin, reuse.body.id, { document: newDocument })).status).toBe(409);

    expect((await search(admin, newDocument)).body.data).toEqual([response.body]);
    expect((await search(admin, cnpj.format(oldDocument))).body.data).toEqual([reuse.body]);
  });

  it('answers 409 for a document another supplier of the tenant holds, and changes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const [first, second] = await seedNames(admin, ['First', 'Second']);
    const response = await patchSupplier(admin, second!.id, { name: 'Renamed', document: first!.document.replace(/[^0-9A-Z]/g, '') });
    expect(response.status).toBe(409);
    expect(response.body).toEqual(problem(409, 'conflict'));
    expect((await listSuppliers(admin)).body.data).toEqual([first, second]);
  });

  it("accepts the supplier's own document and one another tenant uses", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const [supplier] = await seed(a, [{}]);
    const [foreign] = await seed(b, [{}]);

    const same = await patchSupplier(a, supplier!.id, { document: supplier!.document.replace(/[^0-9A-Z]/g, '') });
    expect(same.status).toBe(200);
    expect(same.body).toEqual(supplier);

    const taken = await patchSupplier(a, supplier!.id, { document: foreign!.document.replace(/[^0-9A-Z]/g, '') });
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({ ...supplier, document: foreign!.document });
  });

  it('applies concurrent changes of one supplier one after the other', async () => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{ name: 'Start' }]);
    const documents = Array.from({ length: 5 }, () => cnpj.generate());
    const responses = await Promise.all(documents.map((document, index) => patchSupplier(admin, supplier!.id, { name: `Name ${index}`, document })));
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);

    // Exactly one index entry and one document sentinel survive: the last writer's.
    const list = await listSuppliers(admin);
    expect(list.body.total).toBe(1);
    expect(list.body.data).toHaveLength(1);
    const final = list.body.data[0]!;
    const winner = documents.findIndex((document) => cnpj.format(document) === final.document);
    expect(final.name).toBe(`Name ${winner}`);
    const freed = documents.filter((_, index) => index !== winner);
    for (const document of freed) expect((await createSupplier(admin, valid({ document }))).status).toBe(201);
    expect((await createSupplier(admin, valid({ document: documents[winner] }))).status).toBe(409);
  });

  it("answers 404 for another tenant's supplier and an unknown id, and changes nothing", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const [foreign] = await seed(b, [{ name: 'Not yours' }]);

    const hijack = await patchSupplier(a, foreign!.id, { name: 'Hijack' });
    expect(hijack.status).toBe(404);
    expect(hijack.headers.get('content-type')).toBe('application/problem+json');
    expect(hijack.body).toEqual(problem(404, 'not-found'));

    const unknown = await patchSupplier(a, '7f9c24e8-3b5a-4f7e-9d8c-1a2b3c4d5e6f', { name: 'Ghost' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(problem(404, 'not-found'));

    expect((await listSuppliers(b)).body.data).toEqual([foreign]);
    expect((await listSuppliers(a)).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
  });

  it('answers 400 for a non-UUID id', async () => {
    const admin = await newTenantWithAdmin();
    const response = await patchSupplier(admin, '42', { name: 'X' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'id', message: expect.any(String) }] }));
  });

  it('answers 400 for an empty body', async () => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{}]);
    const response = await patchSupplier(admin, supplier!.id, {});
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: '', message: 'at least one field is required' }] }));
  });

  it.each([
    ['a null name', { name: null }, 'name'],
    ['a blank corporate name', { corporateName: ' ' }, 'corporateName'],
    ['a null document', { document: null }, 'document'],
    ['a punctuated document', { document: '11.222.333/0001-81' }, 'document'],
    ['a phone without the plus', { phone: '5511987654321' }, 'phone'],
    ['a bad e-mail', { email: 'nope' }, 'email'],
    ['a null active', { active: null }, 'active'],
    ['an unknown field', { tenantId: 'x' }, 'tenantId'],
  ])('answers 400 for %s and changes nothing', async (_case, body, field) => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{}]);
    const response = await patchSupplier(admin, supplier!.id, body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(validationError(field));
    expect((await listSuppliers(admin)).body.data).toEqual([supplier]);
  });
});

describe('GET /suppliers/{id}', () => {
  it('answers the same view as the create, and as the update after a PATCH', async () => {
    const admin = await newTenantWithAdmin();
    const created = await createSupplier(admin, valid({ document: cnpj.generate(), email: 'Compras@Acme.Example', phone: '+55 (11) 98765-4321' }));
    expect(created.status).toBe(201);

    const response = await getSupplier(admin, created.body.id);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual(created.body);

    const patched = await patchSupplier(admin, created.body.id, { name: 'Acme Renamed', email: null, active: false });
    expect(patched.status).toBe(200);
    expect(await getSupplier(admin, created.body.id)).toMatchObject({ status: 200, body: patched.body });
  });

  it('lets any session of the tenant read, not only its administrator', async () => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{ name: 'Shared' }]);
    const member = await registerInvitee(admin, uniqueEmail('member'), 'member password', 'Member');
    expect(member.status).toBe(200);

    const response = await call<Supplier>('GET', `/suppliers/${supplier!.id}`, { cookies: cookiesFrom(member) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(supplier);
  });

  it("answers 404 for another tenant's supplier, the same as for an unknown id", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const [foreign] = await seed(b, [{ name: 'Not yours' }]);

    const response = await getSupplier(a, foreign!.id);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(404, 'not-found'));

    const unknown = await getSupplier(a, '7f9c24e8-3b5a-4f7e-9d8c-1a2b3c4d5e6f');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(problem(404, 'not-found'));
    // Nothing tells the two apart but the request id.
    const { requestId: _foreignRequest, ...foreignProblem } = response.body as unknown as Record<string, unknown>;
    const { requestId: _unknownRequest, ...unknownProblem } = unknown.body as unknown as Record<string, unknown>;
    expect(unknownProblem).toEqual(foreignProblem);

    expect(await getSupplier(b, foreign!.id)).toMatchObject({ status: 200, body: foreign });
  });

  it('answers 404 for a deleted supplier', async () => {
    const admin = await newTenantWithAdmin();
    const [supplier] = await seed(admin, [{}]);
    expect((await getSupplier(admin, supplier!.id)).status).toBe(200);

    expect((await call('DELETE', `/suppliers/${supplier!.id}`, { cookies: admin.cookies })).status).toBe(204);

    const response = await getSupplier(admin, supplier!.id);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(problem(404, 'not-found'));
  });

  it('answers 400 naming `id` for a non-UUID id', async () => {
    const admin = await newTenantWithAdmin();
    const response = await getSupplier(admin, '42');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'id', message: expect.any(String) }] }));
  });

  it('answers 401 without a session', async () => {
    const response = await call('GET', '/suppliers/7f9c24e8-3b5a-4f7e-9d8c-1a2b3c4d5e6f');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(problem(401, 'unauthorized'));
  });
});

describe('GET /suppliers', () => {
  it('answers an empty page for a tenant without suppliers', async () => {
    const admin = await newTenantWithAdmin();
    const response = await listSuppliers(admin);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
  });

  it('orders by name, case- and accent-insensitively, a name before its extensions, ties by id', async () => {
    const admin = await newTenantWithAdmin();
    const created = await seedNames(admin, ['Zeta', 'éden', 'Acme Ltda', 'beta', 'Álvaro', 'Mesmo', 'acme', 'ALFA', 'Acme-Sul', 'mesmo']);
    const twins = created.filter((supplier) => supplier.name.toLowerCase() === 'mesmo').sort((x, y) => (x.id < y.id ? -1 : 1));

    const response = await listSuppliers(admin);
    expect(response.body).toEqual({
      data: [...inOrder(created, ['acme', 'Acme Ltda', 'Acme-Sul', 'ALFA', 'Álvaro', 'beta', 'éden']), ...twins, ...inOrder(created, ['Zeta'])],
      total: 10,
      page: 1,
      limit: 10,
    });
  });

  it('pages with the defaults (page 1, limit 10), a last partial page and pages past the end', async () => {
    const admin = await newTenantWithAdmin();
    const names = Array.from({ length: 13 }, (_, index) => `Fornecedor ${String(index + 1).padStart(2, '0')}`);
    const created = await seedNames(admin, [...names].reverse());
    const ordered = inOrder(created, names);

    expect((await listSuppliers(admin)).body).toEqual({ data: ordered.slice(0, 10), total: 13, page: 1, limit: 10 });
    expect((await listSuppliers(admin, '?page=2')).body).toEqual({ data: ordered.slice(10), total: 13, page: 2, limit: 10 });
    expect((await listSuppliers(admin, '?page=3')).body).toEqual({ data: [], total: 13, page: 3, limit: 10 });
    expect((await listSuppliers(admin, '?page=1000000')).body).toEqual({ data: [], total: 13, page: 1000000, limit: 10 });

    const pages = await Promise.all([1, 2, 3].map((page) => listSuppliers(admin, `?page=${page}&limit=5`)));
    expect(pages.map((page) => page.body)).toEqual([
      { data: ordered.slice(0, 5), total: 13, page: 1, limit: 5 },
      { data: ordered.slice(5, 10), total: 13, page: 2, limit: 5 },
      { data: ordered.slice(10), total: 13, page: 3, limit: 5 },
    ]);
    expect((await listSuppliers(admin, '?limit=13')).body).toEqual({ data: ordered, total: 13, page: 1, limit: 13 });
    expect((await listSuppliers(admin, '?page=4&limit=4')).body).toEqual({ data: ordered.slice(12), total: 13, page: 4, limit: 4 });
    expect((await listSuppliers(admin, '?page=007&limit=1')).body).toEqual({ data: [ordered[6]], total: 13, page: 7, limit: 1 });
  });

  it('answers limit=100 with up to 100 suppliers, and treats a blank search as none', async () => {
    const admin = await newTenantWithAdmin();
    const created = await seedNames(admin, ['Bravo', 'Alfa', 'Charlie']);
    const ordered = inOrder(created, ['Alfa', 'Bravo', 'Charlie']);
    expect((await listSuppliers(admin, '?limit=100')).body).toEqual({ data: ordered, total: 3, page: 1, limit: 100 });
    expect((await listSuppliers(admin, '?search=')).body).toEqual({ data: ordered, total: 3, page: 1, limit: 10 });
    expect((await listSuppliers(admin, '?search=%20%20&limit=2')).body).toEqual({ data: ordered.slice(0, 2), total: 3, page: 1, limit: 2 });
  });

  it.each([
    ['?limit=101', 'limit'],
    ['?limit=0', 'limit'],
    ['?limit=-1', 'limit'],
    ['?limit=abc', 'limit'],
    ['?limit=1.5', 'limit'],
    ['?limit=1e1', 'limit'],
    ['?limit=', 'limit'],
    ['?limit=%2010', 'limit'],
    ['?page=0', 'page'],
    ['?page=-1', 'page'],
    ['?page=1.5', 'page'],
    ['?page=two', 'page'],
    ['?page=99999999999999999999', 'page'],
    ['?sort=name', 'sort'],
    ['?pageSize=10', 'pageSize'],
    [`?search=${'x'.repeat(101)}`, 'search'],
    ['?page=1&page=2', 'page'],
  ])('answers 400 for %s', async (query, field) => {
    const admin = await newTenantWithAdmin();
    const response = await listSuppliers(admin, query);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field, message: expect.any(String) }] }));
  });

  it('accepts a search of exactly 100 characters', async () => {
    const admin = await newTenantWithAdmin();
    const response = await search(admin, 'x'.repeat(100));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
  });

  it('answers 401 without a session', async () => {
    const response = await call('GET', '/suppliers');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(problem(401, 'unauthorized'));
  });
});

describe('GET /suppliers?search=', () => {
  // Fixed documents (a fresh tenant per test), so that no other field holds their digits.
  const spDocument = '11222333000181';
  const paoDocument = '52998224725';

  /** Four suppliers whose fields exercise every kind of match. */
  async function catalogue(account: Account) {
    const [sp, pao, central, ze] = await seed(account, [
      {
        name: 'São Paulo Distribuidora',
        corporateName: 'SP Distribuição de Alimentos LTDA',
        document: spDocument,
        email: 'compras@spdist.example',
        phone: '+55 11 98765-4321',
      },
      { name: 'Casa do Pão', corporateName: 'Panificadora Sao Jorge ME', document: paoDocument, email: 'contato@casadopao.example', phone: '+55 21 3333-4444' },
      { name: 'Mercado Central', corporateName: 'Central Atacado S.A.', document: '12ABC34501DE35' },
      { name: 'Zé Ferragens', corporateName: 'José Ferragens ME', document: '11144477735', email: 'ze@ferragens.example', phone: '+55 31 99876-5432' },
    ]);
    return { sp: sp!, pao: pao!, central: central!, ze: ze! };
  }

  it('finds names and corporate names case- and accent-insensitively, by name', async () => {
    const admin = await newTenantWithAdmin();
    const { sp, pao, ze } = await catalogue(admin);
    for (const term of ['sao', 'SÃO', 'São', 'SAO']) {
      expect((await search(admin, term)).body, term).toEqual({ data: [pao, sp], total: 2, page: 1, limit: 10 });
    }
    expect((await search(admin, 'sao paulo')).body).toEqual({ data: [sp], total: 1, page: 1, limit: 10 });
    expect((await search(admin, 'JOSE')).body).toEqual({ data: [ze], total: 1, page: 1, limit: 10 });
    expect((await search(admin, 'ze ferr')).body).toEqual({ data: [ze], total: 1, page: 1, limit: 10 });
  });

  it('finds a corporate name and an e-mail fragment', async () => {
    const admin = await newTenantWithAdmin();
    const { pao, central, ze } = await catalogue(admin);
    expect((await search(admin, 'atacado')).body).toEqual({ data: [central], total: 1, page: 1, limit: 10 });
    expect((await search(admin, 'panificadora')).body).toEqual({ data: [pao], total: 1, page: 1, limit: 10 });
    expect((await search(admin, 'casadopao')).body).toEqual({ data: [pao], total: 1, page: 1, limit: 10 });
    expect((await search(admin, 'ZE@FERRAGENS')).body).toEqual({ data: [ze], total: 1, page: 1, limit: 10 });
    expect((await search(admin, '.example')).body.total).toBe(3);
  });

  it('finds a document with and without punctuation', async () => {
    const admin = await newTenantWithAdmin();
    const { sp, pao, central } = await catalogue(admin);
    const only = (supplier: Supplier) => ({ data: [supplier], total: 1, page: 1, limit: 10 });
    expect((await search(admin, cnpj.format(spDocument))).body).toEqual(only(sp));
    expect((await search(admin, spDocument)).body).toEqual(only(sp));
    expect((await search(admin, cnpj.format(spDocument).slice(0, 10))).body).toEqual(only(sp));
    expect((await search(admin, cpf.format(paoDocument))).body).toEqual(only(pao));
    expect((await search(admin, paoDocument.slice(0, 9))).body).toEqual(only(pao));
    expect((await search(admin, '12.ABC.345/01DE-35')).body).toEqual(only(central));
    expect((await search(admin, '12abc345')).body).toEqual(only(central));
    expect((await search(admin, '01DE-35')).body).toEqual(only(central));
  });

  it('finds a phone with and without punctuation', async () => {
    const admin = await newTenantWithAdmin();
    const { sp, pao } = await catalogue(admin);
    const only = (supplier: Supplier) => ({ data: [supplier], total: 1, page: 1, limit: 10 });
    for (const term of ['+55 11 98765', '(11) 98765-4321', '11987654321', '+5511987654321', '98765-4321']) {
      expect((await search(admin, term)).body, term).toEqual(only(sp));
    }
    expect((await search(admin, '(21) 3333-4444')).body).toEqual(only(pao));
  });

  it('answers an empty page with total 0 when nothing matches', async () => {
    const admin = await newTenantWithAdmin();
    await catalogue(admin);
    expect((await search(admin, 'inexistente')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
    expect((await search(admin, 'sao paulo distribuidora sp')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
    expect((await search(admin, '---')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
  });

  it('pages the matches: total counts every match, a page past the end is empty', async () => {
    const admin = await newTenantWithAdmin();
    const names = Array.from({ length: 12 }, (_, index) => `Peças ${String(index + 1).padStart(2, '0')}`);
    const created = await seedNames(admin, ['Outro A', ...[...names].reverse(), 'Outro B', 'Pecuária']);
    const ordered = inOrder(created, names);

    expect((await search(admin, 'pecas')).body).toEqual({ data: ordered.slice(0, 10), total: 12, page: 1, limit: 10 });
    expect((await search(admin, 'PEÇAS', '&page=2')).body).toEqual({ data: ordered.slice(10), total: 12, page: 2, limit: 10 });
    expect((await search(admin, 'pecas', '&page=3&limit=5')).body).toEqual({ data: ordered.slice(10), total: 12, page: 3, limit: 5 });
    expect((await search(admin, 'pecas', '&page=4&limit=5')).body).toEqual({ data: [], total: 12, page: 4, limit: 5 });
    expect((await search(admin, 'pecas', '&limit=100')).body).toEqual({ data: ordered, total: 12, page: 1, limit: 100 });
    expect((await search(admin, 'pec', '&limit=1&page=13')).body).toEqual({ data: [created.at(-1)], total: 13, page: 13, limit: 1 });
  });
});

describe('tenant isolation', () => {
  it("never shows a tenant another tenant's suppliers, in lists or searches, nor lets it change them", async () => {
    const a = await newTenantWithAdmin();
    const b = await newTenantWithAdmin();
    const document = cnpj.generate();
    const [mine] = await seed(a, [{ name: 'Compartilhado', document, email: 'a@shared.example' }]);
    const [theirs, theirOther] = await seed(b, [
      { name: 'Compartilhado', document, email: 'b@shared.example' },
      { name: 'Exclusivo de B', phone: '+55 11 3456-7890' },
    ]);

    expect((await listSuppliers(a)).body).toEqual({ data: [mine], total: 1, page: 1, limit: 10 });
    expect((await search(a, 'compartilhado')).body).toEqual({ data: [mine], total: 1, page: 1, limit: 10 });
    expect((await search(a, document)).body).toEqual({ data: [mine], total: 1, page: 1, limit: 10 });
    expect((await search(a, 'exclusivo')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
    expect((await search(a, 'b@shared')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });
    expect((await search(a, '3456-7890')).body).toEqual({ data: [], total: 0, page: 1, limit: 10 });

    expect((await patchSupplier(a, theirs!.id, { name: 'Hijack' })).status).toBe(404);
    expect((await patchSupplier(a, theirOther!.id, { document: cnpj.generate() })).status).toBe(404);
    expect((await listSuppliers(b)).body).toEqual({ data: [theirs, theirOther], total: 2, page: 1, limit: 10 });
  });
});
