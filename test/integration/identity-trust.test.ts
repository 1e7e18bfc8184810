import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { readAuditPage } from '../../lib/audit/repository';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { PASSWORD_ATTEMPTS } from '../../lib/routes';
import { mapConcurrently } from '../../lib/domain/concurrency';
import { hashPassword } from '../../lib/auth/passwords';
import { codeAt } from '../../lib/auth/totp';
import { promoteOrCreateAdmin } from '../../tools/admin/create-admin';
import { moveCredentials } from '../../tools/admin/move-credentials';
import {
  allowedOrigin,
  call,
  clearOfWindowEnd,
  cookiesFrom,
  invitationTokenFor,
  linkParameter,
  login,
  newTenantWithAdmin,
  outboxFor,
  problem,
  randomLoopback,
  registerInvitee,
  signInWithSecondFactor,
  signUp,
  uniqueEmail,
  uniqueName,
  useLocalStoreInProcess,
  type Account,
  type ApiResponse,
} from './api';

/**
 * Identity against an attacker who reads the source: each finding of the security review, proven
 * closed over HTTP. Races run as parallel requests, repeated over ROUNDS rounds, and assert that no
 * session opened with superseded credentials survives.
 */
const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'staple battery horse correct';
const ROUNDS = 20;
/**
 * Rounds run a few at a time, each with an account of its own: the race is inside a round
 * (its requests in parallel), and independent rounds need not wait for each other.
 */
const ROUNDS_IN_FLIGHT = 4;
const inRounds = (round: (index: number) => Promise<void>) =>
  mapConcurrently(
    Array.from({ length: ROUNDS }, (_, index) => index),
    ROUNDS_IN_FLIGHT,
    round,
  );
const STEP_MS = 30_000;
/** A race's rounds each open an account and check passwords: well past the default 30 s on a loaded 2-core machine. */
const RACE_TIMEOUT_MS = 240_000;

beforeAll(useLocalStoreInProcess);

const register = (body: Record<string, unknown>, ip?: string) => call('POST', '/auth/register', { body: { name: 'Someone', password: PASSWORD, ...body }, ip });
const alive = async (cookies: Record<string, string>) => (await call('GET', '/auth/me', { cookies })).status === 200;
const statusesOf = (responses: ApiResponse[]) => responses.map((response) => response.status);
/** The observable parts of a refusal (the request id differs). */
const refusal = (response: ApiResponse) => ({
  status: response.status,
  body: { ...(response.body as Record<string, unknown>), requestId: 'x' },
  cookies: response.setCookies,
});

/** The token of the newest password-reset e-mail to an address, after asking for one (from an address of its own). */
async function resetTokenFor(email: string): Promise<string> {
  expect((await call('POST', '/auth/forgot-password', { body: { email } })).status).toBe(200);
  const mail = outboxFor(email)
    .filter((message) => message.subject === 'Reset your password')
    .at(-1);
  return (mail && linkParameter(mail, 'token')) ?? '';
}

/** Turn a second factor on for an account (the password is the step-up); its secret and the cookies the confirmation set. */
async function enrol(account: Account): Promise<{ secret: string; cookies: Record<string, string> }> {
  const started = await call<{ secret: string }>('POST', '/auth/mfa/totp', { cookies: account.cookies, body: { password: account.password } });
  expect(started.status).toBe(200);
  const confirmed = await call('POST', '/auth/mfa/totp/confirm', { cookies: account.cookies, body: { code: codeAt(started.body.secret, Date.now()) } });
  expect(confirmed.status).toBe(200);
  return { secret: started.body.secret, cookies: cookiesFrom(confirmed) };
}

/** A member of the owner's tenant, registered through an invitation. */
async function memberOf(owner: Account): Promise<Account> {
  const email = uniqueEmail('member');
  const registered = await registerInvitee(owner, email, PASSWORD, 'Member');
  expect(registered.status).toBe(200);
  return {
    tenantId: owner.tenantId,
    userId: (registered.body as { user: { id: string } }).user.id,
    email,
    password: PASSWORD,
    cookies: cookiesFrom(registered),
  };
}

/** A platform administrator (made as `npm run create-admin` makes one), signed in with its second factor. */
async function platformAdmin(): Promise<Account> {
  const email = uniqueEmail('root');
  const outcome = await promoteOrCreateAdmin({ email, password: PASSWORD, name: 'Root', tenantName: uniqueName('platform'), promote: false }, Date.now());
  const signedIn = await signInWithSecondFactor(email, PASSWORD, outcome.secondFactor.secret);
  expect(signedIn.response.status).toBe(200);
  return {
    tenantId: outcome.tenantId,
    userId: (signedIn.response.body as { user: { id: string } }).user.id,
    email,
    password: PASSWORD,
    cookies: signedIn.cookies,
  };
}

describe('1. sign-up proves the mailbox', () => {
  it('opens the base account only through the link mailed to adminEmail, as the tenant administrator', async () => {
    const email = uniqueEmail('owner');
    const signedUp = await call<{ id: string }>('POST', '/tenants', { body: { name: uniqueName('shop'), plan: 'STARTER', adminEmail: email } });
    expect(signedUp.status).toBe(201);
    const [mail] = outboxFor(email);
    expect(mail).toEqual({
      to: email,
      subject: 'You are invited to the back-office',
      text: expect.stringContaining('as its administrator'),
      html: expect.any(String),
      sentAt: expect.any(String),
    });
    expect(mail && linkParameter(mail, 'tenantId')).toBe(signedUp.body.id);
    expect(mail && linkParameter(mail, 'email')).toBe(email);
    const token = invitationTokenFor(email) ?? '';

    const withoutToken = await register({ email, tenantId: signedUp.body.id });
    const wrongToken = await register({ email, tenantId: signedUp.body.id, invitationToken: `${token.slice(0, -2)}xx` });
    expect([withoutToken.status, wrongToken.status]).toEqual([403, 403]);
    expect(withoutToken.body).toEqual(problem(403, 'forbidden'));

    const opened = await register({ email, tenantId: signedUp.body.id, invitationToken: token });
    expect(opened.status).toBe(200);
    const users = await call<{ email: string; role: string }[]>('GET', '/users', { cookies: cookiesFrom(opened) });
    expect(users.body).toEqual([expect.objectContaining({ email, role: 'ADMIN' })]);
    // Single use.
    expect((await register({ email, tenantId: signedUp.body.id, invitationToken: token })).status).toBe(403);
  });

  it('answers a registration without a valid invitation with the same 403 whether the address has an account or not', async () => {
    const holder = await newTenantWithAdmin();
    const unknown = uniqueEmail('unknown');
    // A tenant with no account yet: it used to take its first registration from anyone.
    const open = await call<{ id: string }>('POST', '/tenants', { body: { name: uniqueName('open'), plan: 'STARTER' } });

    const answers = [];
    for (const invitationToken of [undefined, 'x'.repeat(43)]) {
      for (const email of [holder.email, unknown])
        answers.push(await register({ email, tenantId: open.body.id, ...(invitationToken ? { invitationToken } : {}) }));
    }
    expect(statusesOf(answers)).toEqual([403, 403, 403, 403]);
    const [first, ...rest] = answers.map(refusal);
    for (const other of rest) expect(other).toEqual(first);
    // Nobody took the tenant or the unknown address.
    const later = await newTenantWithAdmin();
    expect((await registerInvitee(later, unknown, PASSWORD)).status).toBe(200);
  });

  it("gives a squatter nothing: a sign-up naming someone else's address opens no account, and the owner can still be invited anywhere", async () => {
    const victim = uniqueEmail('victim');
    const squatted = await call<{ id: string }>('POST', '/tenants', { body: { name: uniqueName('squat'), plan: 'STARTER', adminEmail: victim } });
    expect(squatted.status).toBe(201);
    // The squatter holds no token: the link went to the victim's mailbox.
    expect((await register({ email: victim, tenantId: squatted.body.id })).status).toBe(403);
    expect((await register({ email: victim, tenantId: squatted.body.id, invitationToken: randomUUID() })).status).toBe(403);

    const employer = await newTenantWithAdmin();
    const hired = await registerInvitee(employer, victim, PASSWORD, 'Victim');
    expect(hired.status).toBe(200);
    expect((await login(victim, PASSWORD)).response.status).toBe(200);
  });

  it('mails the owner of an address that already has an account a notice, not a link, and answers the sign-up the same', async () => {
    const holder = await newTenantWithAdmin();
    const before = outboxFor(holder.email).length;
    const signedUp = await call('POST', '/tenants', { body: { name: uniqueName('again'), plan: 'STARTER', adminEmail: holder.email } });
    expect(signedUp.status).toBe(201);
    const notice = outboxFor(holder.email).slice(before);
    expect(notice).toHaveLength(1);
    expect(notice[0]?.text).toContain('already has an account');
    expect(notice[0]?.text).not.toMatch(/token=/);
  });

  it('leaves a tenant signed up without adminEmail without an account until a platform administrator invites one', async () => {
    const tenant = await call<{ id: string }>('POST', '/tenants', { body: { name: uniqueName('bare'), plan: 'PROFESSIONAL' } });
    const owner = uniqueEmail('later-owner');
    expect((await register({ email: owner, tenantId: tenant.body.id })).status).toBe(403);

    // Nobody else may set the address: another tenant's administrator does not see it, and a
    // tenant administrator may not change their own tenant's.
    const stranger = await newTenantWithAdmin();
    expect((await call('PATCH', `/tenants/${tenant.body.id}`, { cookies: stranger.cookies, body: { adminEmail: owner } })).status).toBe(404);
    const ownOnly = await call('PATCH', `/tenants/${stranger.tenantId}`, { cookies: stranger.cookies, body: { adminEmail: owner } });
    expect(ownOnly.status).toBe(403);
    expect(ownOnly.body).toEqual(problem(403, 'forbidden'));

    const root = await platformAdmin();
    const invited = await call('PATCH', `/tenants/${tenant.body.id}`, { cookies: root.cookies, body: { adminEmail: owner } });
    expect(invited.status).toBe(200);
    const opened = await register({ email: owner, tenantId: tenant.body.id, invitationToken: invitationTokenFor(owner) });
    expect(opened.status).toBe(200);
    expect((await call<{ role: string }[]>('GET', '/users', { cookies: cookiesFrom(opened) })).body).toEqual([expect.objectContaining({ role: 'ADMIN' })]);

    // The base account exists: the address no longer decides anything.
    const late = await call('PATCH', `/tenants/${tenant.body.id}`, { cookies: root.cookies, body: { adminEmail: uniqueEmail('other') } });
    expect(late.status).toBe(409);
    expect(late.body).toEqual(problem(409, 'conflict'));
  });

  it('turns an earlier base-account invitation off when a platform administrator names another address', async () => {
    const first = uniqueEmail('first');
    const { tenantId, token } = await signUp(first);
    const root = await platformAdmin();
    const second = uniqueEmail('second');
    expect((await call('PATCH', `/tenants/${tenantId}`, { cookies: root.cookies, body: { adminEmail: second } })).status).toBe(200);

    expect((await register({ email: first, tenantId, invitationToken: token })).status).toBe(403);
    expect((await register({ email: second, tenantId, invitationToken: invitationTokenFor(second) })).status).toBe(200);
  });

  it('counts a sign-up against the invitations of its address (3 a day)', async () => {
    const target = uniqueEmail('flooded');
    const answers = [];
    for (let index = 0; index < 4; index += 1)
      answers.push(await call('POST', '/tenants', { body: { name: uniqueName('flood'), plan: 'STARTER', adminEmail: target } }));
    expect(statusesOf(answers)).toEqual([201, 201, 201, 429]);
    expect(outboxFor(target)).toHaveLength(3);
  });
});

describe('2. step-up for the sensitive account changes', () => {
  it('takes the current password to start enrolment: missing is 400, a wrong one is 400 and counts in the login window', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    await clearOfWindowEnd(PASSWORD_ATTEMPTS.windowSeconds);
    const missing = await call('POST', '/auth/mfa/totp', { cookies: admin.cookies, body: {}, ip });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(problem(400, 'validation', { errors: [{ field: 'password', message: expect.any(String) }] }));

    const wrong = [];
    for (let index = 0; index < 5; index += 1)
      wrong.push(await call('POST', '/auth/mfa/totp', { cookies: admin.cookies, body: { password: `guess ${index}` }, ip }));
    expect(statusesOf(wrong)).toEqual([400, 400, 400, 400, 400]);
    expect(wrong[0]?.body).toEqual(problem(400, 'validation', { errors: [{ field: 'password', message: 'is not the current password' }] }));
    // The same window as login's: the sixth attempt, and a login of that e-mail from that IP, are refused.
    expect((await call('POST', '/auth/mfa/totp', { cookies: admin.cookies, body: { password: admin.password }, ip })).status).toBe(429);
    expect((await login(admin.email, admin.password, { ip })).response.status).toBe(429);
    // Nothing was started: a confirmation finds no enrolment.
    expect((await call('POST', '/auth/mfa/totp/confirm', { cookies: admin.cookies, body: { code: '123456' } })).status).toBe(409);

    const started = await call('POST', '/auth/mfa/totp', { cookies: admin.cookies, body: { password: admin.password } });
    expect(started.status).toBe(200);
  });

  it('mails the owner when the second factor is turned on, and again when it is turned off', async () => {
    const admin = await newTenantWithAdmin();
    const { secret, cookies } = await enrol(admin);
    expect(outboxFor(admin.email).at(-1)?.subject).toBe('A second factor was turned on for your account');
    const off = await call('DELETE', '/auth/mfa/totp', { cookies, body: { code: codeAt(secret, Date.now() + STEP_MS) } });
    expect(off.status).toBe(200);
    expect(outboxFor(admin.email).at(-1)?.subject).toBe('The second factor of your account was turned off');
  });

  it("lets a tenant administrator reset a member's second factor: audited, mailed, and every session of the member ends", async () => {
    const admin = await newTenantWithAdmin();
    const member = await memberOf(admin);
    const { cookies } = await enrol(member);
    const elsewhere = await call('POST', '/auth/login', { body: { email: member.email, password: PASSWORD } });
    expect(elsewhere.body).toEqual({ mfaRequired: true });

    const reset = await call('DELETE', `/users/${member.userId}/mfa`, { cookies: admin.cookies, headers: { origin: allowedOrigin() } });
    expect(reset.status).toBe(204);
    expect(await alive(cookies)).toBe(false);
    expect(outboxFor(member.email).at(-1)?.subject).toBe('The second factor of your account was reset');
    // The password alone signs in again; a second reset finds nothing to reset.
    expect((await login(member.email, PASSWORD)).response.body).toEqual({ user: expect.objectContaining({ id: member.userId }) });
    expect((await call('DELETE', `/users/${member.userId}/mfa`, { cookies: admin.cookies })).status).toBe(409);
    const { entries } = await readAuditPage({ tenantId: admin.tenantId }, { filter: { action: 'user.mfa_reset' }, fromSk: '0', toSk: '~', limit: 10 });
    expect(entries).toEqual([
      expect.objectContaining({ actor: { type: 'user', id: admin.userId, name: 'Admin' }, resource: { type: 'user', id: member.userId } }),
    ]);
  });

  it("keeps the other resets out of a tenant administrator's reach: a member, another administrator, oneself, another tenant", async () => {
    const admin = await newTenantWithAdmin();
    const member = await memberOf(admin);
    const colleague = await memberOf(admin);
    expect((await call('PATCH', `/users/${colleague.userId}`, { cookies: admin.cookies, body: { role: 'ADMIN' } })).status).toBe(200);
    await enrol(colleague);
    const memberSession = (await enrol(member)).cookies;

    const byMember = await call('DELETE', `/users/${colleague.userId}/mfa`, { cookies: memberSession });
    const asAdmin = await call('DELETE', `/users/${colleague.userId}/mfa`, { cookies: admin.cookies });
    const own = await call('DELETE', `/users/${admin.userId}/mfa`, { cookies: admin.cookies });
    const other = await newTenantWithAdmin();
    const elsewhere = await call('DELETE', `/users/${member.userId}/mfa?tenantId=${admin.tenantId}`, { cookies: other.cookies });
    expect([byMember.status, asAdmin.status, own.status, elsewhere.status]).toEqual([403, 403, 403, 404]);
    expect(asAdmin.body).toEqual(problem(403, 'forbidden', { detail: "An administrator's second factor is reset by a platform administrator" }));
  });

  it("lets a platform administrator reset a tenant administrator's second factor", async () => {
    const admin = await newTenantWithAdmin();
    const { cookies } = await enrol(admin);
    const root = await platformAdmin();
    const reset = await call('DELETE', `/users/${admin.userId}/mfa?tenantId=${admin.tenantId}`, { cookies: root.cookies });
    expect(reset.status).toBe(204);
    expect(await alive(cookies)).toBe(false);
    expect((await login(admin.email, PASSWORD)).response.body).toEqual({ user: expect.objectContaining({ id: admin.userId }) });
  });
});

describe('3. sessions are bound to the credentials they were opened with', () => {
  it(
    `lets no login that read the old password outlive a password reset (${ROUNDS} rounds of parallel logins racing the reset)`,
    async () => {
      await inRounds(async (round) => {
        const account = await newTenantWithAdmin();
        const token = await resetTokenFor(account.email);
        const [reset, ...logins] = await Promise.all([
          call('POST', '/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } }),
          ...Array.from({ length: 4 }, () => call('POST', '/auth/login', { body: { email: account.email, password: PASSWORD } })),
        ]);
        expect(reset?.status).toBe(200);
        const opened = logins.filter((response) => response.status === 200).map(cookiesFrom);
        for (const cookies of [account.cookies, ...opened]) {
          expect(await alive(cookies), `round ${round}`).toBe(false);
          expect((await call('POST', '/auth/refresh', { cookies })).status, `round ${round}`).toBe(401);
        }
      });
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `lets no login with the old password outlive a password change (${ROUNDS} rounds)`,
    async () => {
      await inRounds(async (round) => {
        const account = await newTenantWithAdmin();
        const [changed, ...logins] = await Promise.all([
          call('POST', '/auth/change-password', { cookies: account.cookies, body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD } }),
          ...Array.from({ length: 4 }, () => call('POST', '/auth/login', { body: { email: account.email, password: PASSWORD } })),
        ]);
        expect(changed?.status).toBe(200);
        for (const cookies of logins.filter((response) => response.status === 200).map(cookiesFrom)) expect(await alive(cookies), `round ${round}`).toBe(false);
        expect(await alive(cookiesFrom(changed as ApiResponse))).toBe(true);
      });
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `lets no password-only session outlive the second factor being turned on (${ROUNDS} rounds)`,
    async () => {
      await inRounds(async (round) => {
        const account = await newTenantWithAdmin();
        const started = await call<{ secret: string }>('POST', '/auth/mfa/totp', { cookies: account.cookies, body: { password: PASSWORD } });
        const [confirmed, ...logins] = await Promise.all([
          call('POST', '/auth/mfa/totp/confirm', { cookies: account.cookies, body: { code: codeAt(started.body.secret, Date.now()) } }),
          ...Array.from({ length: 4 }, () => call('POST', '/auth/login', { body: { email: account.email, password: PASSWORD } })),
        ]);
        expect(confirmed?.status).toBe(200);
        const signedIn = logins.filter((response) => response.status === 200 && (response.body as { user?: unknown }).user !== undefined);
        for (const cookies of signedIn.map(cookiesFrom)) expect(await alive(cookies), `round ${round}`).toBe(false);
        expect(await alive(cookiesFrom(confirmed as ApiResponse))).toBe(true);
      });
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `refuses a second-factor challenge opened with the old password once the password is reset (${ROUNDS} rounds, racing and after)`,
    async () => {
      await inRounds(async (round) => {
        const account = await newTenantWithAdmin();
        const { secret } = await enrol(account);
        const challenged = await call('POST', '/auth/login', { body: { email: account.email, password: PASSWORD } });
        const raced = await call('POST', '/auth/login', { body: { email: account.email, password: PASSWORD } });
        const token = await resetTokenFor(account.email);
        const verify = (response: ApiResponse, offset: number) =>
          call('POST', '/auth/mfa/verify', {
            cookies: { mfaChallenge: cookiesFrom(response).mfaChallenge ?? '' },
            body: { code: codeAt(secret, Date.now() + offset) },
            headers: { origin: allowedOrigin() },
          });

        const [reset, racing] = await Promise.all([
          call('POST', '/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } }),
          verify(raced, STEP_MS),
        ]);
        expect(reset.status).toBe(200);
        if (racing.status === 200) expect(await alive(cookiesFrom(racing)), `round ${round}`).toBe(false);
        const late = await verify(challenged, STEP_MS);
        expect(late.status, `round ${round}`).toBe(401);
        expect(late.setCookies.some((cookie) => cookie.startsWith('accessToken='))).toBe(false);
      });
    },
    RACE_TIMEOUT_MS,
  );

  it(
    `lets no refresh that raced a reset extend the session (${ROUNDS} rounds)`,
    async () => {
      await inRounds(async (round) => {
        const account = await newTenantWithAdmin();
        const token = await resetTokenFor(account.email);
        const [reset, refreshed] = await Promise.all([
          call('POST', '/auth/reset-password', { body: { token, newPassword: NEW_PASSWORD } }),
          call('POST', '/auth/refresh', { cookies: account.cookies }),
        ]);
        expect(reset.status).toBe(200);
        if (refreshed.status === 200) expect(await alive({ ...account.cookies, ...cookiesFrom(refreshed) }), `round ${round}`).toBe(false);
      });
    },
    RACE_TIMEOUT_MS,
  );
});

describe('4. cheap checks before expensive ones', () => {
  it('refuses a flood of registrations with made-up tokens from one IP after 30 attempts, without telling addresses apart', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const flood = await Promise.all(
      Array.from({ length: 45 }, (_, index) =>
        register({ email: index % 2 ? admin.email : uniqueEmail('flood'), tenantId: admin.tenantId, invitationToken: randomUUID() }, ip),
      ),
    );
    expect(statusesOf(flood).filter((status) => status === 403)).toHaveLength(30);
    expect(statusesOf(flood).filter((status) => status === 429)).toHaveLength(15);
    const limited = flood.find((response) => response.status === 429);
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('gives a successful registration its slot back: an office registering its staff is never held back by them', async () => {
    const admin = await newTenantWithAdmin();
    const ip = randomLoopback();
    const bogus = () => register({ email: uniqueEmail('typo'), tenantId: admin.tenantId, invitationToken: 'mistyped' }, ip);
    const statuses = [];
    for (let index = 0; index < 29; index += 1) statuses.push((await bogus()).status);
    const email = uniqueEmail('staff');
    expect((await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email } })).status).toBe(201);
    statuses.push((await register({ email, tenantId: admin.tenantId, invitationToken: invitationTokenFor(email) }, ip)).status);
    statuses.push((await bogus()).status, (await bogus()).status);
    expect(statuses).toEqual([...Array.from({ length: 29 }, () => 403), 200, 403, 429]);
  });
});

describe('6. the smaller ones', () => {
  it('limits the coverage reads the precomputed index does not serve to 60 an hour per user, and no one else', async () => {
    const admin = await newTenantWithAdmin();
    const colleague = await memberOf(admin);
    const statuses = [];
    for (let index = 0; index < 61; index += 1) statuses.push((await call('GET', '/inventory/dashboard/coverage?days=31', { cookies: admin.cookies })).status);
    expect(statuses).toEqual([...Array.from({ length: 60 }, () => 200), 429]);
    expect((await call('GET', '/inventory/dashboard/coverage?days=31', { cookies: colleague.cookies })).status).toBe(200);
  }, 120_000);

  it('limits supplier searches to 30 a minute per user, and leaves plain pages alone', async () => {
    let statuses: number[] = [];
    let admin: Account | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      admin = await newTenantWithAdmin();
      const minute = Math.floor(Date.now() / 60_000);
      statuses = [];
      for (let index = 0; index < 31; index += 1) statuses.push((await call('GET', `/suppliers?search=caf${index}`, { cookies: admin.cookies })).status);
      if (Math.floor(Date.now() / 60_000) === minute) break;
    }
    expect(statuses).toEqual([...Array.from({ length: 30 }, () => 200), 429]);
    expect((await call('GET', '/suppliers?page=1', { cookies: admin?.cookies ?? {} })).status).toBe(200);
  });

  it('stores the User-Agent under the stored-text rule, cut to 512 characters, in sessions and in the audit trail', async () => {
    const account = await newTenantWithAdmin();
    // C1 controls (NEL, CSI) and a tab. The test's client writes the header as UTF-8, so the API
    // reads U+0085 as the two bytes C2 85 (Latin-1: `Â` and the control), as any server would.
    const forged = `Mozilla/5.0\u0085[support] password reset approved\u009b31m\tX${'y'.repeat(600)}`;
    const signedIn = await call('POST', '/auth/login', { body: { email: account.email, password: PASSWORD }, headers: { 'user-agent': forged } });
    expect(signedIn.status).toBe(200);
    const stored = `Mozilla/5.0Â?[support] password reset approvedÂ?31m?X${'y'.repeat(600)}`.slice(0, 512);

    const sessions = await call<{ userAgent: string; current: boolean }[]>('GET', '/auth/sessions', { cookies: cookiesFrom(signedIn) });
    expect(sessions.body.find((session) => session.current)?.userAgent).toBe(stored);
    const { entries } = await readAuditPage({ tenantId: account.tenantId }, { filter: { action: 'auth.login' }, fromSk: '0', toSk: '~', limit: 1 });
    expect(entries[0]?.userAgent).toBe(stored);
  });

  it('limits password-reset e-mails to 5 a day per address, from any number of IPs, known address or not', async () => {
    const account = await newTenantWithAdmin();
    const unknown = uniqueEmail('nobody');
    for (const email of [account.email, unknown]) {
      const statuses = [];
      for (let index = 0; index < 6; index += 1) statuses.push((await call('POST', '/auth/forgot-password', { body: { email }, ip: randomLoopback() })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    }
    expect(outboxFor(account.email).filter((message) => message.subject === 'Reset your password')).toHaveLength(5);
  });

  it('caps a user at 50 sessions: a new one ends the oldest, recorded in the audit trail', async () => {
    const account = await newTenantWithAdmin();
    const opened: Record<string, string>[] = [account.cookies];
    for (let index = 0; index < 54; index += 1) {
      const signedIn = await login(account.email, PASSWORD);
      expect(signedIn.response.status).toBe(200);
      opened.push(signedIn.cookies);
    }
    const newest = opened.at(-1) ?? {};
    const sessions = await call<unknown[]>('GET', '/auth/sessions', { cookies: newest });
    expect(sessions.body).toHaveLength(50);
    // The five oldest ended, the registration's first.
    for (const cookies of opened.slice(0, 5)) expect(await alive(cookies)).toBe(false);
    for (const cookies of opened.slice(5, 8)) expect(await alive(cookies)).toBe(true);
    const { entries } = await readAuditPage({ tenantId: account.tenantId }, { filter: { action: 'session.evicted' }, fromSk: '0', toSk: '~', limit: 10 });
    expect(entries).toHaveLength(5);
    expect(entries[0]).toEqual(
      expect.objectContaining({ actor: { type: 'user', id: account.userId, name: 'Admin' }, resource: { type: 'session', id: expect.any(String) } }),
    );
  }, 120_000);

  it('holds the cap under 20 parallel sign-ins', async () => {
    const account = await newTenantWithAdmin();
    for (let index = 0; index < 40; index += 1) expect((await login(account.email, PASSWORD)).response.status).toBe(200);
    const parallel = await Promise.all(Array.from({ length: 20 }, () => login(account.email, PASSWORD)));
    expect(parallel.map((attempt) => attempt.response.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const sessions = await call<unknown[]>('GET', '/auth/sessions', { cookies: parallel[0]?.cookies ?? {} });
    expect(sessions.body).toHaveLength(50);
  }, 120_000);
});

describe('7. the secrets live apart from the user item', () => {
  it('keeps no password hash, TOTP secret or recovery code on the user item every function reads', async () => {
    const account = await newTenantWithAdmin();
    await enrol(account);
    const { Item: user } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(account.tenantId, account.userId), ConsistentRead: true }));
    const { Item: credentials } = await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.credentials(account.tenantId, account.userId), ConsistentRead: true }),
    );
    for (const secret of ['passwordHash', 'totpSecret', 'totpLastStep', 'recoveryCodeHashes', 'resetTokenHash', 'totpPendingSecret'])
      expect(user).not.toHaveProperty(secret);
    expect(credentials).toEqual(
      expect.objectContaining({
        pk: `CREDENTIALS#${account.tenantId}#${account.userId}`,
        passwordHash: expect.stringMatching(/^\$2[aby]\$/),
        totpSecret: expect.any(String),
      }),
    );
  });

  it('moves the secrets of an account from before the move with npm run migrate, which then signs in', async () => {
    const tenantId = randomUUID();
    const userId = randomUUID();
    const email = uniqueEmail('legacy');
    const now = new Date().toISOString();
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.tenant(tenantId),
          type: 'Tenant',
          id: tenantId,
          name: uniqueName('legacy'),
          plan: 'STARTER',
          status: 'ACTIVE',
          baseAccountUserId: userId,
          createdAt: now,
          updatedAt: now,
        },
      }),
    );
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...keys.email(email), type: 'Email', email, tenantId, userId } }));
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.user(tenantId, userId),
          type: 'User',
          id: userId,
          tenantId,
          name: 'Legacy',
          email,
          passwordHash: await hashPassword(PASSWORD),
          role: 'ADMIN',
          platformAdmin: false,
          createdAt: now,
          updatedAt: now,
        },
      }),
    );
    expect((await login(email, PASSWORD)).response.status).toBe(401);

    expect((await moveCredentials()).moved).toBeGreaterThanOrEqual(1);
    const signedIn = await login(email, PASSWORD);
    expect(signedIn.response.status).toBe(200);
    const { Item: user } = await db().send(new GetCommand({ TableName: tableName(), Key: keys.user(tenantId, userId), ConsistentRead: true }));
    expect(user).not.toHaveProperty('passwordHash');
    // A second run has nothing left to move for it.
    await moveCredentials();
    expect((await login(email, PASSWORD)).response.status).toBe(200);
    // The move scans the whole shared table twice: by the time this file runs it holds what
    // every other file wrote, which on a busy 2-core runner takes longer than the default 30 s.
  }, 120_000);
});
