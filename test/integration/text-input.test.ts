import { cnpj } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { call, newTenantWithAdmin, problem, uniqueName, type Account } from './api';

/**
 * Text that is text. Every stored text field refuses C0 and C1 controls,
 * bidirectional overrides and isolates, lone surrogates and U+FFFD, with a 400 naming the
 * field; a charset other than UTF-8 is a 415 and bytes that are not UTF-8 are a 400.
 */

const MESSAGES = {
  control: 'must not contain control characters',
  bidi: 'must not contain bidirectional control characters (U+202A to U+202E, U+2066 to U+2069)',
  scalar: 'must be valid Unicode text (no lone surrogates or U+FFFD)',
};

/** Each bad character, written as a JSON escape so the wire carries exactly it. */
const BAD: [string, string, keyof typeof MESSAGES][] = [
  ['BEL (C0)', '\\u0007', 'control'],
  ['ESC (C0)', '\\u001b', 'control'],
  ['NEL (C1)', '\\u0085', 'control'],
  ['CSI (C1)', '\\u009b', 'control'],
  ['RLO override', '\\u202e', 'bidi'],
  ['LRE embedding', '\\u202a', 'bidi'],
  ['RLI isolate', '\\u2067', 'bidi'],
  ['PDI isolate', '\\u2069', 'bidi'],
  ['lone high surrogate', '\\ud800', 'scalar'],
  ['lone low surrogate', '\\udfff', 'scalar'],
  ['replacement character', '\\ufffd', 'scalar'],
];

/** One stored text field per resource: the route, a body template with `%` for the text, the field. */
const FIELDS: { field: string; path: string; body: (text: string) => string }[] = [
  { field: 'name', path: '/companies', body: (text) => `{"name":"Loja ${text}x","document":"${cnpj.generate()}"}` },
  {
    field: 'address.street',
    path: '/companies',
    body: (text) =>
      `{"name":"Loja","document":"${cnpj.generate()}","address":{"street":"Rua ${text}A","number":"1","city":"Recife","state":"PE","zipCode":"50000-000"}}`,
  },
  { field: 'settings.ti' + 'tle', path: '/companies', body: (text) => `{"name":"Loja","document":"${cnpj.generate()}","settings":{"ti${text}tle":1}}` },
  { field: 'corporateName', path: '/suppliers', body: (text) => `{"name":"Acme","corporateName":"Acme ${text}Ltda","document":"${cnpj.generate()}"}` },
  {
    field: 'email',
    path: '/suppliers',
    body: (text) => `{"name":"Acme","corporateName":"Acme Ltda","document":"${cnpj.generate()}","email":"a${text}b@acme.example"}`,
  },
  { field: 'name', path: '/inventory/products', body: (text) => `{"sku":"SKU-${Math.random().toString(36).slice(2, 8)}","name":"Caneta ${text}azul"}` },
  { field: 'name', path: '/inventory/warehouses', body: (text) => `{"name":"Central ${text}Norte"}` },
];

async function post(account: Account, path: string, text: string) {
  return call('POST', path, { cookies: account.cookies, rawBody: text, headers: { 'content-type': 'application/json' } });
}

describe('stored text fields', () => {
  for (const { field, path, body } of FIELDS) {
    it(`POST ${path} refuses every bad character in ${field}, storing nothing`, async () => {
      const admin = await newTenantWithAdmin();
      for (const [, escape, kind] of BAD) {
        const response = await post(admin, path, body(escape));
        const message = field.startsWith('settings.') ? `key ${MESSAGES[kind]}` : MESSAGES[kind];
        const shownField = field.startsWith('settings.') ? `settings.${JSON.parse(`"ti${escape}tle"`) as string}` : field;
        expect({ escape, status: response.status, body: response.body }).toEqual({
          escape,
          status: 400,
          body: problem(400, 'validation', { errors: [expect.objectContaining({ field: shownField, message })] }),
        });
      }
      const listPath = path === '/suppliers' ? '/suppliers?limit=100' : path;
      const listed = await call<unknown[] | { data: unknown[] }>('GET', listPath, { cookies: admin.cookies });
      expect(Array.isArray(listed.body) ? listed.body : listed.body.data).toEqual([]);
    });
  }

  it('refuses them in a tenant brand name and an invited e-mail too', async () => {
    const tenant = await call('POST', '/tenants', {
      rawBody: `{"name":"${uniqueName('t')}","plan":"STARTER","brandName":"Acme \\u202egnp.exe"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(tenant.status).toBe(400);
    expect(tenant.body).toEqual(problem(400, 'validation', { errors: [{ field: 'brandName', message: MESSAGES.bidi }] }));
    const admin = await newTenantWithAdmin();
    const invited = await post(admin, '/auth/invitations', '{"email":"a\\u0000b@acme.example"}');
    expect(invited.status).toBe(400);
    expect(invited.body).toEqual(problem(400, 'validation', { errors: [expect.objectContaining({ field: 'email', message: MESSAGES.control })] }));
  });

  it('refuses a new password with a lone surrogate (it has no UTF-8 form), storing nothing', async () => {
    const tenant = await call<{ id: string }>('POST', '/tenants', { body: { name: uniqueName('t'), plan: 'STARTER' } });
    const response = await call('POST', '/auth/register', {
      rawBody: `{"name":"Ana","email":"ana.${tenant.body.id.slice(0, 8)}@acme.example","password":"long enough \\ud800","tenantId":"${tenant.body.id}"}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'password', message: 'must not contain lone surrogates' }] }));
  });

  it('keeps ordinary Unicode: accents, CJK, emoji (a surrogate pair) and joiners', async () => {
    const admin = await newTenantWithAdmin();
    const name = 'Açaí São João 東京 👩‍💻 Ünïcödé';
    const response = await call<{ name: string }>('POST', '/inventory/warehouses', { cookies: admin.cookies, body: { name } });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(name);
  });
});

describe('free-form settings values', () => {
  it('may hold control characters (a newline or a tab is data there)', async () => {
    const admin = await newTenantWithAdmin();
    const settings = { footer: 'Obrigado!\n\tVolte sempre' };
    const response = await call('POST', '/companies', { cookies: admin.cookies, body: { name: 'Loja', document: cnpj.generate(), settings } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(expect.objectContaining({ settings }));
  });

  it('refuse bidirectional controls and non-scalar characters at any depth', async () => {
    const admin = await newTenantWithAdmin();
    for (const [escape, message] of [
      ['\\u202e', MESSAGES.bidi],
      ['\\udc00', MESSAGES.scalar],
    ] as const) {
      const response = await post(admin, '/companies', `{"name":"Loja","document":"${cnpj.generate()}","settings":{"a":[1,{"b":"x${escape}y"}]}}`);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(problem(400, 'validation', { errors: [{ field: 'settings.a.1.b', message }] }));
    }
  });
});

describe('encodings', () => {
  it('answers 415 to a body declared in another charset', async () => {
    const admin = await newTenantWithAdmin();
    for (const contentType of ['application/json; charset=iso-8859-1', 'application/json;charset="windows-1252"', 'application/json; charset=utf-16']) {
      const response = await call('POST', '/inventory/warehouses', {
        cookies: admin.cookies,
        rawBody: '{"name":"Central"}',
        headers: { 'content-type': contentType },
      });
      expect({ contentType, status: response.status, body: response.body }).toEqual({
        contentType,
        status: 415,
        body: problem(415, 'unsupported-media-type', { detail: 'The request body must be UTF-8 (charset=utf-8 or no charset)' }),
      });
    }
    const warehouses = await call<unknown[]>('GET', '/inventory/warehouses', { cookies: admin.cookies });
    expect(warehouses.body).toEqual([]);
  });

  it('accepts UTF-8 declared in any spelling', async () => {
    const admin = await newTenantWithAdmin();
    for (const contentType of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset="utf8"']) {
      const response = await call('POST', '/inventory/warehouses', {
        cookies: admin.cookies,
        rawBody: `{"name":"Central ${contentType.length}"}`,
        headers: { 'content-type': contentType },
      });
      expect(response.status).toBe(201);
    }
  });

  it('answers 400 to bytes that are not UTF-8 instead of storing replacement characters', async () => {
    const admin = await newTenantWithAdmin();
    // "Caf\xe9" in Latin-1: the lone byte 0xE9 is not UTF-8.
    const latin1 = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const response = await call('POST', '/inventory/warehouses', { cookies: admin.cookies, rawBody: latin1, headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(problem(400, 'bad-request', { detail: 'The request body is not valid UTF-8' }));
    const warehouses = await call<unknown[]>('GET', '/inventory/warehouses', { cookies: admin.cookies });
    expect(warehouses.body).toEqual([]);
  });
});
