import { describe, expect, it } from 'vitest';
import { call, login, newTenantWithAdmin, problem, randomLoopback, uniqueEmail } from './api';

/**
 * Issue 12, class 1: the login throttle holds for parallel attempts. Each attempt takes its
 * slot of the e-mail-and-IP window (5 per 15 minutes) in one conditional write before the
 * password is checked, so a burst can never run more than 5 password checks.
 */

const attempt = (email: string, password: string, ip: string) => call('POST', '/auth/login', { body: { email, password }, ip });

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

describe('what a success does with its slot', () => {
  it('gives it back when it is alone in the window: a user may sign in again and again', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    for (let round = 0; round < 8; round += 1) expect((await login(admin.email, admin.password, { ip })).response.status).toBe(200);

    // Every slot is still free for the user's own typos.
    const typos = [];
    for (let round = 0; round < 5; round += 1) typos.push((await attempt(admin.email, 'typo', ip)).status);
    expect(typos).toEqual([401, 401, 401, 401, 401]);
  });

  it('keeps it once the window holds a failure, so failures and successes share the 5 checks', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const statuses = [];
    statuses.push((await attempt(admin.email, 'typo', ip)).status);
    for (let round = 0; round < 4; round += 1) statuses.push((await attempt(admin.email, admin.password, ip)).status);
    statuses.push((await attempt(admin.email, admin.password, ip)).status);

    expect(statuses).toEqual([401, 200, 200, 200, 200, 429]);
  });
});
