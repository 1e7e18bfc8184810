import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { TooManyRequests } from '../../lib/errors';
import { consume, forgetFullWindows, KNOWN_FULL_ATTEMPTS_MS, limitScope, routeLimit, takenByChain, type RateLimit } from '../../lib/rate-limit';
import { PASSWORD_ATTEMPTS, routeList, routes, SIGN_IN_ATTEMPTS_PER_IP } from '../../lib/routes';

/**
 * The limiter's reading of the manifest (lib/rate-limit): under which counter scope a limit
 * counts, which limits the handler chain takes before any work (the rest are the service's,
 * which alone knows the e-mail or whether a request needs a slot), and how a service finds
 * its route's limit.
 */
const route = { method: 'POST', path: '/things/{id}' };

describe('limitScope', () => {
  it('is the scope the limit names, shared by every route that names it', () => {
    expect(limitScope(route, { per: 'ip', limit: 1, windowSeconds: 60, scope: 'shared' })).toBe('shared');
    expect(limitScope(routes.login, PASSWORD_ATTEMPTS)).toBe('password-attempts');
    expect(limitScope(routes.changePassword, PASSWORD_ATTEMPTS)).toBe('password-attempts');
  });

  it("else the route's method and path, so each route counts apart", () => {
    expect(limitScope(route, { per: 'ip', limit: 1, windowSeconds: 60 })).toBe('POST /things/{id}');
    expect(limitScope(routes.listSessions, { per: 'user', limit: 10, windowSeconds: 60 })).toBe('GET /auth/sessions');
  });
});

describe('takenByChain', () => {
  const limit = (per: RateLimit['per'], counts?: RateLimit['counts']): RateLimit => ({ per, limit: 1, windowSeconds: 60, ...(counts ? { counts } : {}) });

  it('takes every request per IP or per user (requests is the default)', () => {
    expect(takenByChain(limit('ip'))).toBe(true);
    expect(takenByChain(limit('user'))).toBe(true);
    expect(takenByChain(limit('ip', 'requests'))).toBe(true);
    expect(takenByChain(limit('user', 'requests'))).toBe(true);
  });

  it('leaves a limit keyed by an e-mail to the service, which alone has read the address', () => {
    expect(takenByChain(limit('email'))).toBe(false);
    expect(takenByChain(limit('email-and-ip'))).toBe(false);
  });

  it.each(['attempts', 'searches', 'full-reads'] as const)('leaves a limit that counts %s to the service, whatever it is keyed by', (counts) => {
    expect(takenByChain(limit('ip', counts))).toBe(false);
    expect(takenByChain(limit('user', counts))).toBe(false);
  });

  it('takes none of the sign-in attempt limits: login checks them before its lookup, in the service', () => {
    expect(routes.login.rateLimits.filter(takenByChain)).toEqual([]);
    expect(routes.register.rateLimits.filter(takenByChain)).toEqual([]);
  });
});

describe('routeLimit', () => {
  it("finds the route's limit keyed as asked, with the scope it counts under", () => {
    expect(routeLimit(routes.login, 'email-and-ip')).toEqual({ scope: 'password-attempts', limit: PASSWORD_ATTEMPTS });
    expect(routeLimit(routes.login, 'ip')).toEqual({ scope: 'sign-in-per-ip', limit: SIGN_IN_ATTEMPTS_PER_IP });
    expect(routeLimit(routes.forgotPassword, 'email')).toEqual({
      scope: 'POST /auth/forgot-password',
      limit: { per: 'email', limit: 5, windowSeconds: 86_400 },
    });
  });

  it('tells limits of one key apart by what they count ("requests" when a limit says nothing)', () => {
    expect(routeLimit(routes.listSuppliers, 'user', 'searches').limit.counts).toBe('searches');
    expect(routeLimit(routes.forgotPassword, 'ip', 'requests')).toEqual({
      scope: 'POST /auth/forgot-password',
      limit: { per: 'ip', limit: 3, windowSeconds: 3600 },
    });
  });

  it('throws, naming the route, when the manifest has no such limit (a wiring mistake)', () => {
    expect(() => routeLimit(routes.listSuppliers, 'user', 'requests')).toThrow('GET /suppliers has no rate limit per user counting requests');
    expect(() => routeLimit(routes.login, 'user')).toThrow('POST /auth/login has no rate limit per user');
    expect(() => routeLimit(routes.getSupplier, 'ip')).toThrow('GET /suppliers/{id} has no rate limit per ip');
  });
});

describe('the limits of the manifest', () => {
  const scoped = routeList().flatMap((listed) => (listed.rateLimits ?? []).map((limit) => ({ id: listed.id, scope: limitScope(listed, limit), limit })));

  it('never give one route two limits on one counter (the same scope and key)', () => {
    const counters = scoped.map(({ id, scope, limit }) => `${id} ${scope} ${limit.per}`);
    expect(counters.length).toBe(new Set(counters).size);
  });

  it('share a scope only with the very same limit, so that routes counting together count alike', () => {
    for (const { scope, limit } of scoped) {
      const sharing = scoped.filter((other) => other.scope === scope && other.limit.per === limit.per);
      for (const other of sharing) expect(other.limit, `${scope} (${other.id})`).toEqual(limit);
    }
  });

  it('count each session route apart (reading the list never holds a revocation back)', () => {
    expect([routes.listSessions, routes.revokeSession, routes.revokeOtherSessions].map((listed) => routeLimit(listed, 'user').scope)).toEqual([
      'GET /auth/sessions',
      'POST /auth/sessions/{id}/revoke',
      'POST /auth/sessions/revoke-others',
    ]);
  });
});

describe('consume, once a window is known full', () => {
  const ddb = mockClient(DynamoDBDocumentClient);
  const NOW = Date.parse('2026-11-25T12:00:00.000Z');
  const full = () => Object.assign(new ConditionalCheckFailedException({ message: 'full', $metadata: {} }), {});
  const requests: RateLimit = { per: 'ip', limit: 2, windowSeconds: 60 };
  const attempts: RateLimit = { per: 'ip', limit: 2, windowSeconds: 900, counts: 'attempts' };

  beforeEach(() => {
    ddb.reset();
    forgetFullWindows();
  });

  it('refuses a window of requests without another write until the window ends', async () => {
    ddb.on(UpdateCommand).rejects(full());
    await expect(consume('scope', requests, { ip: '198.51.100.1' }, NOW)).rejects.toBeInstanceOf(TooManyRequests);
    await expect(consume('scope', requests, { ip: '198.51.100.1' }, NOW + 30_000)).rejects.toBeInstanceOf(TooManyRequests);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);

    // Another subject, and the next window, ask the store again.
    ddb.on(UpdateCommand).resolves({});
    await consume('scope', requests, { ip: '198.51.100.2' }, NOW + 30_000);
    await consume('scope', requests, { ip: '198.51.100.1' }, NOW + 60_000);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(3);
  });

  it('asks the store again a second later for a window of attempts, which a success elsewhere may have freed', async () => {
    ddb.on(UpdateCommand).rejectsOnce(full()).resolves({});
    await expect(consume('scope', attempts, { ip: '198.51.100.1' }, NOW)).rejects.toBeInstanceOf(TooManyRequests);
    await expect(consume('scope', attempts, { ip: '198.51.100.1' }, NOW + KNOWN_FULL_ATTEMPTS_MS - 1)).rejects.toBeInstanceOf(TooManyRequests);
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);

    await expect(consume('scope', attempts, { ip: '198.51.100.1' }, NOW + KNOWN_FULL_ATTEMPTS_MS)).resolves.toEqual(expect.objectContaining({ per: 'ip' }));
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(2);
  });

  it("answers a remembered refusal with the same Retry-After as the store's", async () => {
    ddb.on(UpdateCommand).rejects(full());
    const refusal = async (): Promise<TooManyRequests> => {
      try {
        await consume('scope', requests, { ip: '198.51.100.9' }, NOW);
      } catch (error) {
        if (error instanceof TooManyRequests) return error;
        throw error;
      }
      throw new Error('the window was not full');
    };
    const first = await refusal();
    const again = await refusal();
    expect(again.headers).toEqual(first.headers);
    expect(first.headers['Retry-After']).toBe('60');
  });
});
