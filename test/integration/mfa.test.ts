import { beforeAll, describe, expect, it } from 'vitest';
import { verifyChallenge } from '../../lib/auth/mfa';
import { codeAt, matchingStep, stepAt } from '../../lib/auth/totp';
import { openChallenge } from '../../lib/auth/mfa-challenge';
import { getCredentials } from '../../lib/auth/credentials-repository';
import { getUser } from '../../lib/auth/users-repository';
import { Unauthorized, ValidationError } from '../../lib/errors';
import { allowedOrigin, call, cookiesFrom, newTenantWithAdmin, outboxFor, problem, useLocalStoreInProcess, type Account, type ApiResponse } from './api';

/**
 * The second factor over HTTP, and its time rules in process with the clock passed
 * in: TOTP enrolment, the two-step login with its challenge cookie, replays, skew, wrong codes
 * in parallel, recovery codes and turning it off.
 */
const PASSWORD = 'correct horse battery';
const STEP = 30_000;

beforeAll(useLocalStoreInProcess);

interface Enrolled {
  account: Account;
  secret: string;
  recoveryCodes: string[];
  cookies: Record<string, string>;
}

async function enrol(account: Account): Promise<Enrolled> {
  const started = await call<{ otpauthUri: string; secret: string; qrSvg: string }>('POST', '/auth/mfa/totp', {
    cookies: account.cookies,
    body: { password: account.password },
  });
  expect(started.status).toBe(200);
  const { secret } = started.body;
  const confirmed = await call<{ recoveryCodes: string[] }>('POST', '/auth/mfa/totp/confirm', {
    cookies: account.cookies,
    body: { code: codeAt(secret, Date.now()) },
  });
  expect(confirmed.status).toBe(200);
  return { account, secret, recoveryCodes: confirmed.body.recoveryCodes, cookies: cookiesFrom(confirmed) };
}

const passwordStep = (account: Account, rememberMe = false) =>
  call('POST', '/auth/login', { body: { email: account.email, password: PASSWORD, ...(rememberMe ? { rememberMe } : {}) } });
const verify = (challenge: string, body: Record<string, string>) =>
  call('POST', '/auth/mfa/verify', { cookies: { mfaChallenge: challenge }, body, headers: { origin: allowedOrigin() } });
const challengeOf = (response: ApiResponse) => cookiesFrom(response).mfaChallenge ?? '';

describe('enrolment', () => {
  it('offers a secret as an otpauth URI, base32 text and a local SVG QR code, and turns on with a code, returning 10 recovery codes once', async () => {
    const admin = await newTenantWithAdmin();
    const started = await call<{ otpauthUri: string; secret: string; qrSvg: string }>('POST', '/auth/mfa/totp', {
      cookies: admin.cookies,
      body: { password: admin.password },
    });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      otpauthUri: `otpauth://totp/Backoffice:${encodeURIComponent(admin.email)}?issuer=Backoffice&secret=${started.body.secret}&algorithm=SHA1&digits=6&period=30`,
      secret: expect.stringMatching(/^[A-Z2-7]{32}$/),
      qrSvg: expect.stringMatching(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<\/svg>$/s),
    });

    const wrong = await call('POST', '/auth/mfa/totp/confirm', { cookies: admin.cookies, body: { code: codeAt(started.body.secret, Date.now() + 5 * STEP) } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(problem(400, 'validation', { errors: [{ field: 'code', message: 'is not a valid code' }] }));

    const confirmed = await call<{ user: { id: string }; recoveryCodes: string[] }>('POST', '/auth/mfa/totp/confirm', {
      cookies: admin.cookies,
      body: { code: codeAt(started.body.secret, Date.now()) },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user.id).toBe(admin.userId);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    for (const code of confirmed.body.recoveryCodes) expect(code).toMatch(/^[0-9a-z]{5}-[0-9a-z]{5}$/);
    // Fresh cookies for the caller; the session it came with, like every other, has ended.
    expect(cookiesFrom(confirmed).accessToken).toBeTruthy();
    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(401);
    expect((await call('GET', '/auth/me', { cookies: cookiesFrom(confirmed) })).status).toBe(200);
    expect(outboxFor(admin.email).at(-1)?.subject).toBe('A second factor was turned on for your account');

    // Stored as hashes only, on the credentials item (the user item holds none); the secret is never shown again.
    const stored = await getCredentials({ tenantId: admin.tenantId, id: admin.userId });
    expect(stored?.recoveryCodeHashes).toHaveLength(10);
    for (const code of confirmed.body.recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code);
    const again = await call('POST', '/auth/mfa/totp', { cookies: cookiesFrom(confirmed), body: { password: admin.password } });
    expect(again.status).toBe(409);
  });
});

describe('login with a second factor', () => {
  it('answers { mfaRequired } with a 5-minute challenge cookie for the verify route alone, no session, then signs in on a code', async () => {
    const { account, secret } = await enrol(await newTenantWithAdmin());
    const first = await passwordStep(account, true);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfaRequired: true });
    expect(first.setCookies).toHaveLength(1);
    const [cookie] = first.setCookies;
    expect(cookie).toMatch(/^mfaChallenge=[\w-]{43}; Max-Age=300; Path=\/auth\/mfa\/verify; HttpOnly; Secure; SameSite=Strict$/);

    const done = await verify(challengeOf(first), { code: codeAt(secret, Date.now() + STEP) });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ user: expect.objectContaining({ id: account.userId, email: account.email }) });
    const cookies = cookiesFrom(done);
    expect(cookies.mfaChallenge).toBe('');
    // rememberMe carried through: a persistent refresh cookie.
    expect(done.setCookies.find((line) => line.startsWith('refreshToken='))).toMatch(/Max-Age=2592000/);
    expect((await call('GET', '/auth/me', { cookies })).status).toBe(200);
    // The challenge is used up.
    expect((await verify(challengeOf(first), { code: codeAt(secret, Date.now() + STEP) })).status).toBe(401);
  });

  it('refuses a code used before (a replay inside its window), and a missing or unknown challenge', async () => {
    const { account, secret } = await enrol(await newTenantWithAdmin());
    const code = codeAt(secret, Date.now() + STEP);
    expect((await verify(challengeOf(await passwordStep(account)), { code })).status).toBe(200);
    const replay = await verify(challengeOf(await passwordStep(account)), { code });
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(problem(400, 'validation', { errors: [{ field: 'code', message: 'is not a valid code' }] }));
    expect((await call('POST', '/auth/mfa/verify', { body: { code } })).status).toBe(401);
    expect((await verify('not-a-challenge', { code })).status).toBe(401);
    expect((await verify(challengeOf(await passwordStep(account)), { code, recoveryCode: 'abcde-fghij' })).status).toBe(400);
  });

  it('counts at most 5 wrong codes of parallel attempts on one challenge, which then dies', async () => {
    const { account, secret } = await enrol(await newTenantWithAdmin());
    const challenge = challengeOf(await passwordStep(account));
    const wrong = codeAt(secret, Date.now() + 10 * STEP);
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => verify(challenge, { code: wrong })))).map((response) => response.status).sort();
    expect(statuses).toEqual([400, 400, 400, 400, 400, 401, 401, 401]);
    expect((await verify(challenge, { code: codeAt(secret, Date.now() + STEP) })).status).toBe(401);
  });

  it('accepts each recovery code once', async () => {
    const { account, recoveryCodes } = await enrol(await newTenantWithAdmin());
    const [first, second] = recoveryCodes as [string, string];
    expect((await verify(challengeOf(await passwordStep(account)), { recoveryCode: first.toUpperCase() })).status).toBe(200);
    const reused = await verify(challengeOf(await passwordStep(account)), { recoveryCode: first });
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual(problem(400, 'validation', { errors: [{ field: 'recoveryCode', message: 'is not an unused recovery code' }] }));
    const last = await verify(challengeOf(await passwordStep(account)), { recoveryCode: second.replace('-', '') });
    expect(last.status).toBe(200);
    expect((await getCredentials({ tenantId: account.tenantId, id: account.userId }))?.recoveryCodeHashes).toHaveLength(8);
    // The holder's copy counts them from the user item, which moves with the codes (the refused reuse counted nothing).
    const mine = await call<{ secondFactor: { recoveryCodesRemaining: number } }>('GET', '/auth/me/data', { cookies: cookiesFrom(last) });
    expect(mine.body.secondFactor).toMatchObject({ recoveryCodesRemaining: 8 });
  });
});

describe('turning it off', () => {
  it('takes an unused code, ends every other session, keeps this one with fresh cookies, and the next login needs the password alone', async () => {
    const { account, secret, recoveryCodes, cookies } = await enrol(await newTenantWithAdmin());
    const usedCode = codeAt(secret, Date.now() + STEP);
    const elsewhere = cookiesFrom(await verify(challengeOf(await passwordStep(account)), { code: usedCode }));
    expect((await call('GET', '/auth/me', { cookies: elsewhere })).status).toBe(200);

    const replayed = await call('DELETE', '/auth/mfa/totp', { cookies, body: { code: usedCode } });
    expect(replayed.status).toBe(400);
    expect((await call('DELETE', '/auth/mfa/totp', { cookies, body: { recoveryCode: 'zzzzz-zzzzz' } })).status).toBe(400);
    expect((await call('DELETE', '/auth/mfa/totp', { cookies, body: {} })).status).toBe(400);

    const off = await call('DELETE', '/auth/mfa/totp', { cookies, body: { recoveryCode: recoveryCodes[0] } });
    expect(off.status).toBe(200);
    expect((await call('GET', '/auth/me', { cookies: cookiesFrom(off) })).status).toBe(200);
    expect((await call('GET', '/auth/me', { cookies })).status).toBe(401);
    expect((await call('GET', '/auth/me', { cookies: elsewhere })).status).toBe(401);
    expect(outboxFor(account.email).at(-1)?.subject).toBe('The second factor of your account was turned off');
    expect((await call('DELETE', '/auth/mfa/totp', { cookies: cookiesFrom(off), body: { recoveryCode: recoveryCodes[1] } })).status).toBe(409);

    const login = await passwordStep(account);
    expect(login.body).toEqual({ user: expect.objectContaining({ id: account.userId }) });
    const stored = await getCredentials({ tenantId: account.tenantId, id: account.userId });
    expect([stored?.totpSecret, stored?.recoveryCodeHashes]).toEqual([null, null]);
    expect((await getUser(account.tenantId, account.userId))?.totpEnabledAt).toBeNull();
  });
});

describe('the clock (in process)', () => {
  it('accepts a code one step early or late and refuses two', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const now = Date.parse('2026-11-24T12:00:10.000Z');
    const step = stepAt(now);
    expect(matchingStep(secret, codeAt(secret, now), now)).toBe(step);
    expect(matchingStep(secret, codeAt(secret, now - STEP), now)).toBe(step - 1);
    expect(matchingStep(secret, codeAt(secret, now + STEP), now)).toBe(step + 1);
    expect(matchingStep(secret, codeAt(secret, now - 2 * STEP), now)).toBeUndefined();
    expect(matchingStep(secret, codeAt(secret, now + 2 * STEP), now)).toBeUndefined();
  });

  it('runs out of recovery codes after the tenth', async () => {
    const { account, recoveryCodes } = await enrol(await newTenantWithAdmin());
    const user = await getUser(account.tenantId, account.userId);
    if (!user) throw new Error('no user');
    const client = { ip: '127.0.0.1', userAgent: 'mfa-test' };
    // A limit of its own, wide enough for eleven attempts (the route's is 10 per 15 minutes).
    const limit = { scope: `mfa-exhaustion-${account.userId}`, limit: { per: 'user' as const, limit: 20, windowSeconds: 900 } };
    for (const code of recoveryCodes) {
      const { token } = await openChallenge(user, false, Date.now());
      expect((await verifyChallenge(token, { recoveryCode: code }, client, Date.now(), limit)).user.id).toBe(account.userId);
    }
    expect((await getCredentials({ tenantId: account.tenantId, id: account.userId }))?.recoveryCodeHashes).toBeNull();
    const { token } = await openChallenge(user, false, Date.now());
    await expect(verifyChallenge(token, { recoveryCode: recoveryCodes[0] }, client, Date.now(), limit)).rejects.toBeInstanceOf(ValidationError);
  });

  it('ends a challenge after its 5 minutes', async () => {
    const { account, secret } = await enrol(await newTenantWithAdmin());
    const user = await getUser(account.tenantId, account.userId);
    if (!user) throw new Error('no user');
    const start = Date.now();
    const { token } = await openChallenge(user, false, start);
    const client = { ip: '127.0.0.1', userAgent: 'mfa-test' };
    const limit = { scope: 'mfa-test', limit: { per: 'user' as const, limit: 10, windowSeconds: 900 } };
    await expect(verifyChallenge(token, { code: codeAt(secret, start + 301_000) }, client, start + 301_000, limit)).rejects.toBeInstanceOf(Unauthorized);
    const { token: fresh } = await openChallenge(user, false, start);
    await expect(verifyChallenge(fresh, { code: codeAt(secret, start + 20 * STEP) }, client, start + 299_000, limit)).rejects.toBeInstanceOf(ValidationError);
    const signedIn = await verifyChallenge(fresh, { code: codeAt(secret, start + 299_000) }, client, start + 299_000, limit);
    expect(signedIn.user.id).toBe(account.userId);
  });
});

describe("a tenant's policy", () => {
  const companies = (cookies: Record<string, string>) => call('GET', '/companies', { cookies });
  const setPolicy = (account: Account, cookies: Record<string, string>, mfaPolicy: string) =>
    call<{ mfaPolicy: string }>('PATCH', `/tenants/${account.tenantId}`, { cookies, body: { mfaPolicy }, headers: { origin: allowedOrigin() } });

  it('ADMINS: an administrator without a second factor may only enrol (403 mfa-enrolment-required elsewhere); members are not concerned', async () => {
    const admin = await newTenantWithAdmin();
    const memberEmail = `member.${admin.userId.slice(0, 8)}@example.com`;
    const invited = await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email: memberEmail } });
    expect(invited.status).toBe(201);
    const token =
      outboxFor(memberEmail)
        .at(-1)
        ?.text.match(/token=([\w-]+)/)?.[1] ?? '';
    const member = cookiesFrom(
      await call('POST', '/auth/register', {
        body: { name: 'Member', email: memberEmail, password: PASSWORD, tenantId: admin.tenantId, invitationToken: token },
      }),
    );

    const set = await setPolicy(admin, admin.cookies, 'ADMINS');
    expect(set.status).toBe(200);
    expect(set.body.mfaPolicy).toBe('ADMINS');

    const refused = await companies(admin.cookies);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(problem(403, 'mfa-enrolment-required'));
    expect((await call('GET', '/auth/me', { cookies: admin.cookies })).status).toBe(200);
    expect((await companies(member)).status).toBe(200);

    const { cookies } = await enrol(admin);
    expect((await companies(cookies)).status).toBe(200);
    // A second factor on: the login asks for it.
    expect((await passwordStep(admin)).body).toEqual({ mfaRequired: true });
  });

  it('ALL: every user without a second factor may only enrol, and OFF lifts it', async () => {
    const admin = await newTenantWithAdmin();
    expect((await setPolicy(admin, admin.cookies, 'ALL')).status).toBe(200);
    expect((await companies(admin.cookies)).status).toBe(403);
    // The policy itself cannot be changed back without enrolling first.
    expect((await setPolicy(admin, admin.cookies, 'OFF')).status).toBe(403);
    const { cookies } = await enrol(admin);
    expect((await setPolicy(admin, cookies, 'OFF')).body.mfaPolicy).toBe('OFF');
    expect((await setPolicy(admin, cookies, 'SOMETIMES')).status).toBe(400);
  });
});
