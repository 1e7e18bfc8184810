import { beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD_ATTEMPTS } from '../../lib/routes';
import { call, clearOfWindowEnd, login, newTenantWithAdmin, problem, randomLoopback, uniqueEmail, type Account } from './api';

/**
 * The login throttle holds for parallel attempts. Each attempt takes its slot of the
 * e-mail-and-IP window (5 per 15 minutes) and of its IP's window (30 per 15 minutes), each in
 * one conditional write, before the password is checked, so a burst can never run more than 5
 * password checks of one e-mail, or 30 from one address. A right password clears its
 * e-mail-and-IP window and gives its IP slot back: a protection that must not lock out a
 * user who mistyped once, or an office behind one NAT.
 */

const attempt = (email: string, password: string, ip: string) => call('POST', '/auth/login', { body: { email, password }, ip });

// Every test counts attempts in the 15-minute windows: none may straddle a window's end.
beforeEach(() => clearOfWindowEnd(PASSWORD_ATTEMPTS.windowSeconds));

describe('login throttle under parallel attempts', () => {
  it('runs at most 5 password checks for 30 parallel wrong guesses with the right password among them', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const burst = Array.from({ length: 31 }, (_, index) => attempt(admin.email, index === 15 ? admin.password : `wrong guess ${index}`, ip));

    const responses = await Promise.all(burst);

    const checked = responses.filter((response) => response.status === 200 || response.status === 401);
    const limited = responses.filter((response) => response.status === 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.length + limited.length).toBe(31);
    for (const response of limited) {
      expect(response.body).toEqual(problem(429, 'rate-limited'));
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(response.setCookies).toEqual([]);
    }
    // The window is full: the right password, alone now, is refused too.
    const right = await attempt(admin.email, admin.password, ip);
    expect(right.status).toBe(429);
    expect(right.setCookies).toEqual([]);
  });

  it('lets the right password in only if it took one of the first 5 slots: never after the fifth failure', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const failures = await Promise.all(Array.from({ length: 5 }, (_, index) => attempt(admin.email, `wrong ${index}`, ip)));
    expect(failures.map((response) => response.status)).toEqual([401, 401, 401, 401, 401]);

    const right = await Promise.all(Array.from({ length: 5 }, () => attempt(admin.email, admin.password, ip)));

    expect(right.map((response) => response.status)).toEqual([429, 429, 429, 429, 429]);
  });

  it('answers a full window the same way for an unknown e-mail as for an existing one', async () => {
    const admin = await newTenantWithAdmin();
    const unknown = uniqueEmail('nobody');
    const ip = randomLoopback();
    const bursts = await Promise.all([admin.email, unknown].map((email) => Promise.all(Array.from({ length: 8 }, () => attempt(email, 'wrong password', ip)))));

    const [known, stranger] = bursts.map((responses) => responses.map((response) => response.status).sort());
    expect(known).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    expect(stranger).toEqual(known);
    const [knownLimited, strangerLimited] = bursts.map((responses) => responses.find((response) => response.status === 429));
    const comparable = (response: typeof knownLimited) => ({
      body: { ...(response?.body as Record<string, unknown>), requestId: 'x' },
      contentType: response?.headers.get('content-type'),
    });
    expect(comparable(strangerLimited)).toEqual(comparable(knownLimited));
  });

  it('keeps other IPs and other e-mails out of a full window', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    await Promise.all(Array.from({ length: 10 }, () => attempt(admin.email, 'wrong password', ip)));

    expect((await login(admin.email, admin.password, { ip: randomLoopback() })).response.status).toBe(200);
    const other = await newTenantWithAdmin();
    expect((await login(other.email, other.password, { ip })).response.status).toBe(200);
  });
});

describe('what a success does with its window', () => {
  it('clears it: a user may sign in again and again, and every slot is still free for a typo', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    for (let round = 0; round < 8; round += 1) expect((await login(admin.email, admin.password, { ip })).response.status).toBe(200);

    const typos = [];
    for (let round = 0; round < 5; round += 1) typos.push((await attempt(admin.email, 'typo', ip)).status);
    expect(typos).toEqual([401, 401, 401, 401, 401]);
  });

  it('never locks out a user who mistyped once: one typo, then as many right sign-ins as they like from the same IP', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const statuses = [(await attempt(admin.email, 'typo', ip)).status];
    for (let round = 0; round < 10; round += 1) statuses.push((await attempt(admin.email, admin.password, ip)).status);

    expect(statuses).toEqual([401, ...Array.from({ length: 10 }, () => 200)]);
  });

  it('clears it only with the right password: four typos, a sign-in, then five more typos are all checked, the sixth is refused', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const statuses = [];
    for (let round = 0; round < 4; round += 1) statuses.push((await attempt(admin.email, 'typo', ip)).status);
    statuses.push((await attempt(admin.email, admin.password, ip)).status);
    for (let round = 0; round < 6; round += 1) statuses.push((await attempt(admin.email, 'typo', ip)).status);

    expect(statuses).toEqual([401, 401, 401, 401, 200, 401, 401, 401, 401, 401, 429]);
  });
});

describe('the ceiling of sign-in attempts per IP (30 per 15 minutes)', () => {
  it('runs at most 30 password checks for a burst of 60 logins rotating e-mails from one IP', async () => {
    const ip = randomLoopback();
    const responses = await Promise.all(Array.from({ length: 60 }, () => attempt(uniqueEmail('rotating'), 'any password at all', ip)));

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    const limited = responses.find((response) => response.status === 429);
    expect(limited?.body).toEqual(problem(429, 'rate-limited'));
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held back.
    expect((await attempt(uniqueEmail('elsewhere'), 'any password at all', randomLoopback())).status).toBe(401);
  });

  // 35 sign-ups and 37 sign-ins, each a bcrypt hash or compare: on two busy cores that is more than the default 30 s.
  it('keeps an office behind one NAT signing in: 35 colleagues, one of them mistyping twice, all get in', { timeout: 120_000 }, async () => {
    const ip = randomLoopback();
    // Their accounts were opened elsewhere (each sign-up from its own address).
    const colleagues = await Promise.all(Array.from({ length: 35 }, () => newTenantWithAdmin()));
    const [first] = colleagues as [Account, ...Account[]];
    const statuses = [(await attempt(first.email, 'typo', ip)).status, (await attempt(first.email, 'typo again', ip)).status];
    for (const colleague of colleagues) statuses.push((await attempt(colleague.email, colleague.password, ip)).status);

    expect(statuses).toEqual([401, 401, ...colleagues.map(() => 200)]);
  });
});
