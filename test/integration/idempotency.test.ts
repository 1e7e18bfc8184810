import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { authorize } from '../../lib/auth/authorize';
import { readAuditPage, type AuditFilter } from '../../lib/audit/repository';
import { listMovements } from '../../lib/inventory/repository';
import { IdempotencyKeyInUse } from '../../lib/errors';
import { db } from '../../lib/db/client';
import { completeKey } from '../../lib/idempotency/repository';
import { IDEMPOTENCY_LEASE_SECONDS, IDEMPOTENCY_TTL_SECONDS, startIdempotent } from '../../lib/idempotency/service';
import { addMovement } from '../../lib/inventory/service';
import { injectFaults } from '../../local/faults';
import {
  call,
  newTenantWithAdmin,
  outboxFor,
  problem,
  randomLoopback,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
  type Account,
  type ApiResponse,
} from './api';

/**
 * An Idempotency-Key makes a retried POST safe. Over HTTP on DynamoDB Local; the
 * request that dies while holding its key is played in process against the same store.
 */
beforeAll(useLocalStoreInProcess);

interface Place {
  productId: string;
  warehouseId: string;
}

async function place(account: Account): Promise<Place> {
  const warehouse = await call<{ id: string }>('POST', '/inventory/warehouses', { cookies: account.cookies, body: { name: 'Central' } });
  const product = await call<{ id: string }>('POST', '/inventory/products', { cookies: account.cookies, body: { sku: uniqueName('SKU'), name: 'Café' } });
  return { productId: product.body.id, warehouseId: warehouse.body.id };
}

const withKey = (account: Account, key: string, body: unknown, path = '/inventory/movements') =>
  call<Record<string, unknown>>('POST', path, { cookies: account.cookies, body, headers: { 'Idempotency-Key': key } });

const movementsOf = async (account: Account, at: Place) => listMovements(account.tenantId, at.productId, at.warehouseId);

const replayed = (response: ApiResponse) => response.headers.get('idempotent-replayed');

describe('POST with an Idempotency-Key', () => {
  it('writes once for 20 parallel requests with one key: each answer is the same 201 or a 409 with Retry-After', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const body = { ...at, type: 'IN', quantity: 5, unitCost: 2 };
    const key = randomUUID();

    const answers = await Promise.all(Array.from({ length: 20 }, () => withKey(admin, key, body)));

    const created = answers.filter((answer) => answer.status === 201);
    const busy = answers.filter((answer) => answer.status === 409);
    expect(created.length + busy.length).toBe(20);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const answer of created) expect(answer.body).toEqual(created[0]?.body);
    for (const answer of busy) {
      expect(answer.body).toEqual(problem(409, 'idempotency-key-in-use'));
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(await movementsOf(admin, at)).toHaveLength(1);
  });

  it('answers a retry after success with the first answer, marked replayed, and writes nothing', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const key = randomUUID();
    const body = { ...at, type: 'IN', quantity: 3, unitCost: 1.5 };

    const first = await withKey(admin, key, body);
    const again = await withKey(admin, key, body);
    // The same body with its keys in another order is the same request.
    const reordered = await withKey(admin, key, { unitCost: 1.5, quantity: 3, type: 'IN', warehouseId: at.warehouseId, productId: at.productId });

    expect(first.status).toBe(201);
    expect(replayed(first)).toBeNull();
    expect(first.body).toEqual(expect.objectContaining({ type: 'IN', quantity: 3, balance: { quantity: 3, averageCost: 1.5, lastCost: 1.5 } }));
    for (const retry of [again, reordered]) {
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(first.body);
      expect(replayed(retry)).toBe('true');
      expect(retry.headers.get('access-control-expose-headers')).toBe('Idempotent-Replayed, Link, Coverage-Figures-Date, Coverage-Stale, ETag');
    }
    expect(await movementsOf(admin, at)).toHaveLength(1);
  });

  it('refuses the key with a different body or another path: 422, and nothing is written', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const key = randomUUID();
    expect((await withKey(admin, key, { ...at, type: 'IN', quantity: 1, unitCost: 1 })).status).toBe(201);

    const otherBody = await withKey(admin, key, { ...at, type: 'IN', quantity: 2, unitCost: 1 });
    const otherPath = await withKey(admin, key, { name: 'Norte' }, '/inventory/warehouses');

    for (const refused of [otherBody, otherPath]) {
      expect(refused.status).toBe(422);
      expect(refused.body).toEqual(problem(422, 'idempotency-key-reused'));
    }
    expect(await movementsOf(admin, at)).toHaveLength(1);
    const warehouses = await call<unknown[]>('GET', '/inventory/warehouses', { cookies: admin.cookies });
    expect(warehouses.body).toHaveLength(1);
  });

  it('keeps no error answer: after a refused OUT the same key and body can succeed', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const key = randomUUID();
    const out = { ...at, type: 'OUT', quantity: 2 };

    const refused = await withKey(admin, key, out);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual(problem(409, 'conflict'));
    await call('POST', '/inventory/movements', { cookies: admin.cookies, body: { ...at, type: 'IN', quantity: 5, unitCost: 1 } });

    const retried = await withKey(admin, key, out);
    expect(retried.status).toBe(201);
    expect(replayed(retried)).toBeNull();
    expect(retried.body).toEqual(expect.objectContaining({ type: 'OUT', quantity: 2, balance: { quantity: 3, averageCost: 1, lastCost: 1 } }));
  });

  it('scopes keys to their user: another user with the same key makes their own write', async () => {
    const admin = await newTenantWithAdmin();
    const other = await newTenantWithAdmin();
    const key = 'shared-key-1';
    const mine = await withKey(admin, key, { name: 'Mine' }, '/inventory/warehouses');
    const theirs = await withKey(other, key, { name: 'Theirs' }, '/inventory/warehouses');
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(replayed(theirs)).toBeNull();
    expect(theirs.body).toEqual(expect.objectContaining({ name: 'Theirs' }));
  });

  it('refuses an Idempotency-Key on POST /tenants (a public route: two callers behind one NAT would share it) and writes nothing', async () => {
    const ip = randomLoopback();
    const body = { name: uniqueName('idem'), plan: 'STARTER', adminEmail: uniqueEmail('idem') };
    const refused = await call('POST', '/tenants', { body, headers: { 'Idempotency-Key': randomUUID() }, ip });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(
      problem(400, 'validation', { errors: [{ field: 'Idempotency-Key', message: expect.stringContaining('not taken by this public route') }] }),
    );
    expect(outboxFor(body.adminEmail)).toEqual([]);

    // Nothing was kept: the same sign-up without the key creates the tenant, once, with one entry.
    const created = await call('POST', '/tenants', { body, ip });
    expect(created.status).toBe(201);
    expect(replayed(created)).toBeNull();
    const tenantId = String(created.body.id);
    const { entries } = await readAuditPage('platform', { filter: { resourceId: tenantId }, fromSk: '0', toSk: '~', limit: 10 });
    expect(entries).toEqual([
      {
        id: expect.any(String),
        occurredAt: expect.any(String),
        actor: { type: 'anonymous', id: null, name: null },
        action: 'tenant.created',
        resource: { type: 'tenant', id: tenantId },
        requestId: expect.any(String),
        sourceIp: ip,
        userAgent: expect.toBeOneOf([expect.any(String), null]),
        changes: null,
      },
    ]);
  });

  it.each([
    ['empty', ''],
    ['with a space', 'a key'],
    ['256 characters', 'k'.repeat(256)],
    ['non-ASCII', 'chave-ção'],
  ])('answers 400 for a key that is %s, writing nothing', async (_name, key) => {
    const admin = await newTenantWithAdmin();
    const answer = await withKey(admin, key, { name: 'Never' }, '/inventory/warehouses');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(problem(400, 'validation', { errors: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }] }));
    const warehouses = await call<unknown[]>('GET', '/inventory/warehouses', { cookies: admin.cookies });
    expect(warehouses.body).toEqual([]);
  });

  it('treats a key past its 24 hours as new, even before the TTL has removed its record', async () => {
    const admin = await newTenantWithAdmin();
    const key = randomUUID();
    const dayAgo = Date.now() - (IDEMPOTENCY_TTL_SECONDS + 60) * 1000;
    const first = await startIdempotent(
      { tenantId: admin.tenantId, userId: admin.userId },
      key,
      { method: 'POST', path: '/inventory/warehouses', body: { name: 'Old' }, successStatus: 201 },
      dayAgo,
    );
    if (first.kind !== 'claimed') throw new Error('the old request should have taken the key');
    expect(await completeKey(first.write, { id: 'old', name: 'Old' })).toBe(true);

    const now = await withKey(admin, key, { name: 'New' }, '/inventory/warehouses');
    expect(now.status).toBe(201);
    expect(replayed(now)).toBeNull();
    expect(now.body).toEqual(expect.objectContaining({ name: 'New' }));
  });

  it('changes nothing without the header: two requests, two writes', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const body = { ...at, type: 'IN', quantity: 1, unitCost: 1 };
    await call('POST', '/inventory/movements', { cookies: admin.cookies, body });
    await call('POST', '/inventory/movements', { cookies: admin.cookies, body });
    expect(await movementsOf(admin, at)).toHaveLength(2);
  });
});

describe('a request that dies holding its key', () => {
  it('neither loses the write nor applies it twice: the retry takes the key over once the lease ends, and the dead one can no longer commit', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const principal = await authorize(admin.cookies.accessToken ?? '', Date.now());
    const key = randomUUID();
    const body = { ...at, type: 'IN' as const, quantity: 4, unitCost: 2.5 };
    const request = { method: 'POST', path: '/inventory/movements', body, successStatus: 201 };

    // A request took the key and died before its write, longer ago than the lease.
    const deadAt = Date.now() - (IDEMPOTENCY_LEASE_SECONDS + 5) * 1000;
    const dead = await startIdempotent({ tenantId: admin.tenantId, userId: admin.userId }, key, request, deadAt);
    expect(dead.kind).toBe('claimed');
    if (dead.kind !== 'claimed') return;

    const retry = await withKey(admin, key, body);
    expect(retry.status).toBe(201);
    expect(replayed(retry)).toBeNull();
    expect(await movementsOf(admin, at)).toHaveLength(1);

    // Were the dead request to wake up and write now, its transaction would be refused whole.
    await expect(addMovement(principal, body, Date.now(), dead.write)).rejects.toBeInstanceOf(IdempotencyKeyInUse);
    expect(await movementsOf(admin, at)).toHaveLength(1);

    const again = await withKey(admin, key, body);
    expect(again.body).toEqual(retry.body);
    expect(replayed(again)).toBe('true');
  });

  it('answers 409 while a live request holds the key, and the retry writes once it is free', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const key = randomUUID();
    const body = { ...at, type: 'IN' as const, quantity: 1, unitCost: 1 };
    const holder = await startIdempotent(
      { tenantId: admin.tenantId, userId: admin.userId },
      key,
      { method: 'POST', path: '/inventory/movements', body, successStatus: 201 },
      Date.now(),
    );
    expect(holder.kind).toBe('claimed');

    const busy = await withKey(admin, key, body);
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(await movementsOf(admin, at)).toHaveLength(0);
  });

  it('holds a key whose claim the SDK sent again after its answer was lost: the second copy finds its own record, not another request', async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const key = randomUUID();
    const body = { ...at, type: 'IN' as const, quantity: 1, unitCost: 1 };
    const request = { method: 'POST', path: '/inventory/movements', body, successStatus: 201 };
    const caller = { tenantId: admin.tenantId, userId: admin.userId };
    // Every write's answer is lost after it applied: the claim's Put is sent again and refused by its own first copy.
    const faults: string[] = [];
    const removeFaults = injectFaults(db(), { rate: 1, seed: 1, kinds: ['timeout'], onFault: (kind, command) => faults.push(`${kind} ${command}`) });
    let claimed: Awaited<ReturnType<typeof startIdempotent>>;
    try {
      claimed = await startIdempotent(caller, key, request, Date.now());
    } finally {
      removeFaults();
    }
    // Sent, and sent again by the SDK; the consistent read of the record met no fault.
    expect(faults).toEqual(['timeout PutItemCommand', 'timeout PutItemCommand']);
    expect(claimed.kind).toBe('claimed');
    // The key is held: by this request, which may complete it, and by no other.
    await expect(startIdempotent(caller, key, request, Date.now())).rejects.toBeInstanceOf(IdempotencyKeyInUse);
    expect(claimed.kind === 'claimed' && (await completeKey(claimed.write, { id: 'answer' }))).toBe(true);
    expect(await startIdempotent(caller, key, request, Date.now())).toEqual({ kind: 'replay', status: 201, body: JSON.stringify({ id: 'answer' }) });
  });

  it("gives back a claim whose Put applied but whose request failed after (its answer lost, then the SDK's retries failed): the retry takes the key", async () => {
    const admin = await newTenantWithAdmin();
    const at = await place(admin);
    const key = randomUUID();
    const request = { method: 'POST', path: '/inventory/movements', body: { ...at, type: 'IN' as const, quantity: 1, unitCost: 1 }, successStatus: 201 };
    const caller = { tenantId: admin.tenantId, userId: admin.userId };
    const faults: string[] = [];
    const removeFaults = injectFaults(db(), {
      rate: 1,
      seed: 1,
      commands: ['PutItemCommand'],
      plan: ['timeout', ...Array.from({ length: 8 }, () => 'internal' as const)],
      onFault: (kind) => faults.push(kind),
    });
    try {
      await expect(startIdempotent(caller, key, request, Date.now())).rejects.toMatchObject({ name: 'InternalServerError' });
    } finally {
      removeFaults();
    }
    // The claim applied on its first attempt; every later one met a 500 until the SDK gave up.
    expect(faults[0]).toBe('timeout');
    expect(faults.slice(1).every((kind) => kind === 'internal')).toBe(true);
    // Without the give-back the key would be held by nobody until its lease ends (409 meanwhile).
    expect((await startIdempotent(caller, key, request, Date.now())).kind).toBe('claimed');
  });
});

describe('the audit entry of an inventory create', () => {
  const entriesOf = async (account: Account, filter: AuditFilter) =>
    (await readAuditPage({ tenantId: account.tenantId }, { filter, fromSk: '0', toSk: '~', limit: 20 })).entries;

  it('is written once with the warehouse, the product and the movement it records: none for a replay or a refused movement', async () => {
    const admin = await newTenantWithAdmin();
    const creates = [
      { path: '/inventory/warehouses', type: 'warehouse', action: 'warehouse.created', body: (): unknown => ({ name: 'Central' }) },
      { path: '/inventory/products', type: 'product', action: 'product.created', body: (): unknown => ({ sku: uniqueName('SKU'), name: 'Café' }) },
    ];
    const ids: Record<string, string> = {};
    for (const create of creates) {
      const key = randomUUID();
      const body = create.body();
      const first = await withKey(admin, key, body, create.path);
      expect(replayed(await withKey(admin, key, body, create.path))).toBe('true');
      ids[create.type] = String(first.body.id);
    }
    const at = { productId: ids.product ?? '', warehouseId: ids.warehouse ?? '' };
    const key = randomUUID();
    const movement = await withKey(admin, key, { ...at, type: 'IN', quantity: 3, unitCost: 2 });
    expect(replayed(await withKey(admin, key, { ...at, type: 'IN', quantity: 3, unitCost: 2 }))).toBe('true');
    expect((await call('POST', '/inventory/movements', { cookies: admin.cookies, body: { ...at, type: 'OUT', quantity: 100 } })).status).toBe(409);

    const recorded = [...creates, { type: 'movement', action: 'movement.created' }];
    ids.movement = String(movement.body.id);
    for (const { type, action } of recorded) {
      expect(await entriesOf(admin, { resourceId: ids[type] ?? '' }), type).toEqual([
        {
          id: expect.any(String),
          occurredAt: expect.any(String),
          actor: { type: 'user', id: admin.userId, name: 'Admin' },
          action,
          resource: { type, id: ids[type] },
          requestId: expect.any(String),
          sourceIp: expect.any(String),
          userAgent: expect.toBeOneOf([expect.any(String), null]),
          changes: null,
        },
      ]);
    }
    // The tenant's one movement: the refused OUT left no entry.
    expect(await entriesOf(admin, { action: 'movement.created' })).toHaveLength(1);
  });
});
