import { randomInt, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { getEndpoint, getSecrets, listEndpointsFor } from '../../lib/webhooks/repository';
import { disableEndpoint } from '../../lib/webhooks/service';
import { allPages, call, login, newTenantWithAdmin, nextLink, problem, registerInvitee, uniqueEmail, useLocalStoreInProcess, type Account } from './api';

/**
 * Webhook endpoints over HTTP: registered, listed, changed, rotated and deleted by a tenant
 * administrator; their targets checked by the SSRF guard (npm start allows loopback targets,
 * WEBHOOK_ALLOW_LOOPBACK); and the repository functions the delivery reads.
 */

interface EndpointView {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}
type SecretView = EndpointView & { secret: string; previousSecretExpiresAt: string | null };

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;
/** A receiver on loopback (nothing listens: registration does not call it). */
const loopbackUrl = (path = '/hook') => `http://127.0.0.1:${randomInt(20_000, 60_000)}${path}`;

async function register(admin: Account, body: Record<string, unknown> = { url: loopbackUrl(), events: ['product.created'] }): Promise<SecretView> {
  const created = await call<SecretView>('POST', '/webhook-endpoints', { cookies: admin.cookies, body });
  if (created.status !== 201) throw new Error(`endpoint registration failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

const listed = async (admin: Account) => (await call<EndpointView[]>('GET', '/webhook-endpoints', { cookies: admin.cookies })).body;

beforeAll(async () => {
  await useLocalStoreInProcess();
});

describe('POST /webhook-endpoints and GET /webhook-endpoints', () => {
  it('registers an endpoint with its secret shown once, which signs as Standard Webhooks says, and lists it without the secret', async () => {
    const admin = await newTenantWithAdmin();
    const url = loopbackUrl('/hooks/backoffice');
    const created = await call<SecretView>('POST', '/webhook-endpoints', {
      cookies: admin.cookies,
      body: { url, events: ['product.created', 'stock_movement.created'], description: 'ERP' },
    });

    expect(created.status).toBe(201);
    const view = {
      id: created.body.id,
      url,
      description: 'ERP',
      events: ['product.created', 'stock_movement.created'],
      enabled: true,
      disabledReason: null,
      failingSince: null,
      createdAt: expect.stringMatching(/Z$/) as string,
      updatedAt: created.body.createdAt,
    };
    expect(created.body).toEqual({ ...view, secret: expect.stringMatching(SECRET) as string, previousSecretExpiresAt: null });

    const list = await call<EndpointView[]>('GET', '/webhook-endpoints', { cookies: admin.cookies });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([view]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.secret.slice(6));

    // The secret is one the receivers' library takes: what it signs, it verifies.
    const receiver = new Webhook(created.body.secret);
    const payload = JSON.stringify({ type: 'product.created', timestamp: new Date().toISOString(), data: { id: randomUUID() } });
    const id = `msg_${randomUUID()}`;
    const at = new Date();
    const signature = receiver.sign(id, at, payload);
    expect(
      receiver.verify(payload, { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature }),
    ).toEqual(JSON.parse(payload));
  });

  it('pages the list with the Link header', async () => {
    const admin = await newTenantWithAdmin();
    const made = [await register(admin), await register(admin), await register(admin)];

    const first = await call<EndpointView[]>('GET', '/webhook-endpoints?limit=2', { cookies: admin.cookies });
    expect(first.body).toHaveLength(2);
    expect(nextLink(first)).toMatch(/^\/webhook-endpoints\?/);
    const all = await allPages<EndpointView>('/webhook-endpoints?limit=2', admin.cookies);
    expect(all.pages).toBe(2);
    expect(all.items.map((endpoint) => endpoint.id).sort()).toEqual(made.map((endpoint) => endpoint.id).sort());
  });

  it('takes at most 20 endpoints per tenant: the next is a 409 until one is deleted', async () => {
    const admin = await newTenantWithAdmin();
    const made: SecretView[] = [];
    for (let index = 0; index < 20; index += 1) made.push(await register(admin));

    const refused = await call('POST', '/webhook-endpoints', { cookies: admin.cookies, body: { url: loopbackUrl(), events: ['product.created'] } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(problem(409, 'conflict', { detail: 'A tenant has at most 20 webhook endpoints; delete one first' }));
    expect((await allPages<EndpointView>('/webhook-endpoints', admin.cookies)).items).toHaveLength(20);

    expect((await call('DELETE', `/webhook-endpoints/${made[0]?.id ?? ''}`, { cookies: admin.cookies })).status).toBe(204);
    await register(admin);
  });

  it('holds the cap for 25 registrations at once: exactly 20 are stored, the others get 409', async () => {
    const admin = await newTenantWithAdmin();
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        call('POST', '/webhook-endpoints', { cookies: admin.cookies, body: { url: loopbackUrl(), events: ['product.created'] } }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(20);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(5);
    for (const answer of refused)
      expect(answer.body).toEqual(problem(409, 'conflict', { detail: 'A tenant has at most 20 webhook endpoints; delete one first' }));
    expect((await allPages<EndpointView>('/webhook-endpoints', admin.cookies)).items).toHaveLength(20);
  });

  it.each([
    ['a private address', { url: 'https://10.0.0.1/hook', events: ['product.created'] }, 'url', /10\.0\.0\.1, a private address/],
    ['the metadata service', { url: 'https://169.254.169.254/latest/meta-data/', events: ['product.created'] }, 'url', /link-local/],
    ['the metadata service over IPv6', { url: 'https://[fd00:ec2::254]/', events: ['product.created'] }, 'url', /private/],
    ['http to a public host', { url: 'http://example.com/hook', events: ['product.created'] }, 'url', /must be an https URL/],
    ['another scheme', { url: 'ftp://example.com/hook', events: ['product.created'] }, 'url', /must be an https URL/],
    ['credentials in the URL', { url: 'https://user:secret@127.0.0.1/hook', events: ['product.created'] }, 'url', /credentials/],
    ['a relative URL', { url: '/hook', events: ['product.created'] }, 'url', /absolute URL/],
    ['a URL over 2048 characters', { url: `https://127.0.0.1/${'a'.repeat(2048)}`, events: ['product.created'] }, 'url', /at most 2048/],
    ['no event type', { url: loopbackUrl(), events: [] }, 'events', /at least one/],
    ['an event type twice', { url: loopbackUrl(), events: ['product.created', 'product.created'] }, 'events', /twice/],
    ['an unknown event type', { url: loopbackUrl(), events: ['product.archived'] }, 'events', /must be one of/],
    ['an unknown field', { url: loopbackUrl(), events: ['product.created'], secret: 'whsec_mine' }, '', /secret/],
  ])('refuses %s with 400 and stores nothing', async (_, body, field, message) => {
    const admin = await newTenantWithAdmin();
    const refused = await call('POST', '/webhook-endpoints', { cookies: admin.cookies, body });

    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(
      problem(400, 'validation', {
        errors: expect.arrayContaining([expect.objectContaining({ field: expect.stringMatching(new RegExp(`^${field}`)) as string })]) as unknown,
      }),
    );
    expect(JSON.stringify(refused.body)).toMatch(message);
    expect(await listed(admin)).toEqual([]);
  });
});

describe('PATCH /webhook-endpoints/{id}', () => {
  it('changes the url, events and description, disables and enables again, each audited', async () => {
    const admin = await newTenantWithAdmin();
    const endpoint = await register(admin);
    const url = loopbackUrl('/v2');

    const changed = await call<EndpointView>('PATCH', `/webhook-endpoints/${endpoint.id}`, {
      cookies: admin.cookies,
      body: { url, events: ['supplier.created'], description: 'v2' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: endpoint.id, url, events: ['supplier.created'], description: 'v2', enabled: true, disabledReason: null });
    expect(Date.parse(changed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(endpoint.updatedAt));

    const disabled = await call<EndpointView>('PATCH', `/webhook-endpoints/${endpoint.id}`, {
      cookies: admin.cookies,
      body: { enabled: false, description: null },
    });
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: 'manual', description: null });
    const enabled = await call<EndpointView>('PATCH', `/webhook-endpoints/${endpoint.id}`, { cookies: admin.cookies, body: { enabled: true } });
    expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
    expect(await listed(admin)).toEqual([enabled.body]);

    const trail = await call<{ items: { action: string; changes: { field: string; before: unknown; after: unknown }[] | null }[] }>(
      'GET',
      `/audit-events?resourceId=${endpoint.id}`,
      { cookies: admin.cookies },
    );
    expect(trail.body.items.map((entry) => entry.action)).toEqual([
      'webhook_endpoint.updated',
      'webhook_endpoint.updated',
      'webhook_endpoint.updated',
      'webhook_endpoint.created',
    ]);
    expect(trail.body.items[2]?.changes).toEqual(
      expect.arrayContaining([
        { field: 'url', before: endpoint.url, after: url },
        { field: 'events', before: ['product.created'], after: ['supplier.created'] },
      ]),
    );
  });

  it('checks a new url as registration does, and changes nothing when it refuses', async () => {
    const admin = await newTenantWithAdmin();
    const endpoint = await register(admin);

    for (const url of ['https://192.168.1.10/hook', 'https://169.254.169.254/', 'http://example.com/hook']) {
      const refused = await call('PATCH', `/webhook-endpoints/${endpoint.id}`, { cookies: admin.cookies, body: { url } });
      expect(refused.status, url).toBe(400);
      expect(refused.body).toEqual(problem(400, 'validation', { errors: [expect.objectContaining({ field: 'url' })] }));
    }
    const empty = await call('PATCH', `/webhook-endpoints/${endpoint.id}`, { cookies: admin.cookies, body: {} });
    expect(empty.status).toBe(400);
    expect((await listed(admin))[0]?.url).toBe(endpoint.url);
  });

  it('answers 404 for an endpoint of another tenant, and leaves it alone', async () => {
    const owner = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const endpoint = await register(owner);

    for (const [method, path, body] of [
      ['PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: false }],
      ['POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined],
      ['DELETE', `/webhook-endpoints/${endpoint.id}`, undefined],
    ] as const) {
      const refused = await call(method, path, { cookies: other.cookies, ...(body ? { body } : {}) });
      expect(refused.status, `${method} ${path}`).toBe(404);
    }
    expect((await listed(owner)).map((listedEndpoint) => listedEndpoint.enabled)).toEqual([true]);
  });
});

describe('POST /webhook-endpoints/{id}/rotate-secret', () => {
  it('answers a new secret once; the previous one signs for 24 hours more', async () => {
    const admin = await newTenantWithAdmin();
    const endpoint = await register(admin);
    const before = Date.now();

    const rotated = await call<SecretView>('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, { cookies: admin.cookies });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(SECRET);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    const expires = Date.parse(rotated.body.previousSecretExpiresAt ?? '');
    expect(expires).toBeGreaterThanOrEqual(before + 24 * 3600 * 1000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);

    expect(await getSecrets(admin.tenantId, endpoint.id)).toEqual({
      tenantId: admin.tenantId,
      endpointId: endpoint.id,
      current: rotated.body.secret,
      previous: endpoint.secret,
      previousExpiresAt: rotated.body.previousSecretExpiresAt,
    });

    const again = await call<SecretView>('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, { cookies: admin.cookies });
    expect((await getSecrets(admin.tenantId, endpoint.id))?.previous).toBe(rotated.body.secret);
    expect(again.body.secret).not.toBe(rotated.body.secret);
    expect(JSON.stringify(await listed(admin))).not.toContain('whsec_');
  });
});

describe('DELETE /webhook-endpoints/{id}', () => {
  it('deletes the endpoint and its secrets; a second delete is a 404', async () => {
    const admin = await newTenantWithAdmin();
    const endpoint = await register(admin);

    const deleted = await call('DELETE', `/webhook-endpoints/${endpoint.id}`, { cookies: admin.cookies });
    expect(deleted.status).toBe(204);
    expect(await listed(admin)).toEqual([]);
    expect(await getSecrets(admin.tenantId, endpoint.id)).toBeUndefined();
    expect((await call('DELETE', `/webhook-endpoints/${endpoint.id}`, { cookies: admin.cookies })).status).toBe(404);
  });
});

describe('who may', () => {
  it('is for tenant administrators: a member gets 403 on every endpoint route, and so does an API key', async () => {
    const admin = await newTenantWithAdmin();
    const endpoint = await register(admin);
    const key = await call<{ key: string }>('POST', '/api-keys', { cookies: admin.cookies, body: { name: 'ERP', scopes: { inventory: 'write' } } });
    const email = uniqueEmail('member');
    await registerInvitee(admin, email, 'member password 1');
    const member = await login(email, 'member password 1');

    for (const [method, path, body] of [
      ['POST', '/webhook-endpoints', { url: loopbackUrl(), events: ['product.created'] }],
      ['GET', '/webhook-endpoints', undefined],
      ['PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: false }],
      ['POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, undefined],
      ['DELETE', `/webhook-endpoints/${endpoint.id}`, undefined],
    ] as const) {
      const asMember = await call(method, path, { cookies: member.cookies, ...(body ? { body } : {}) });
      expect(asMember.status, `${method} ${path}`).toBe(403);
      expect(asMember.body).toEqual(problem(403, 'forbidden'));
      const asKey = await call(method, path, { headers: { authorization: `Bearer ${key.body.key}` }, ...(body ? { body } : {}) });
      expect(asKey.body, `${method} ${path}`).toEqual(problem(403, 'forbidden', { detail: 'API keys cannot use this route: it takes a signed-in session' }));
    }
    expect(await listed(admin)).toEqual([expect.objectContaining({ id: endpoint.id, enabled: true })]);
  });
});

describe('what the delivery reads (lib/webhooks/repository)', () => {
  it('lists the enabled endpoints subscribed to a type, and disables one once, audited by the system', async () => {
    const admin = await newTenantWithAdmin();
    const products = await register(admin, { url: loopbackUrl(), events: ['product.created', 'supplier.created'] });
    const suppliers = await register(admin, { url: loopbackUrl(), events: ['supplier.created'] });
    const off = await register(admin, { url: loopbackUrl(), events: ['product.created'] });
    await call('PATCH', `/webhook-endpoints/${off.id}`, { cookies: admin.cookies, body: { enabled: false } });

    expect((await listEndpointsFor(admin.tenantId, 'product.created')).map((endpoint) => endpoint.id)).toEqual([products.id]);
    expect((await listEndpointsFor(admin.tenantId, 'supplier.created')).map((endpoint) => endpoint.id).sort()).toEqual([products.id, suppliers.id].sort());
    expect(await listEndpointsFor(admin.tenantId, 'company.created')).toEqual([]);

    await disableEndpoint(admin.tenantId, products.id, 'gone');
    await disableEndpoint(admin.tenantId, products.id, 'failing');
    expect(await getEndpoint(admin.tenantId, products.id)).toMatchObject({ enabled: false, disabledReason: 'gone' });
    expect(await listEndpointsFor(admin.tenantId, 'product.created')).toEqual([]);
    await disableEndpoint(admin.tenantId, randomUUID(), 'gone');

    const trail = await call<{ items: { action: string; actor: { type: string } }[] }>('GET', `/audit-events?resourceId=${products.id}`, {
      cookies: admin.cookies,
    });
    expect(trail.body.items.map((entry) => [entry.action, entry.actor.type])).toEqual([
      ['webhook_endpoint.updated', 'system'],
      ['webhook_endpoint.created', 'user'],
    ]);
  });
});
