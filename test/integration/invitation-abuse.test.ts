import { beforeAll, describe, expect, it } from 'vitest';
import { authorize } from '../../lib/auth/authorize';
import { INVITATION_DAYS, INVITATION_RESEND_HOURS, inviteUser } from '../../lib/auth/invitations';
import {
  call,
  invitationTokenFor,
  login,
  newTenantWithAdmin,
  outboxFor,
  problem,
  registerInvitee,
  uniqueEmail,
  useLocalStoreInProcess,
  type Account,
  type ApiResponse,
} from './api';

/**
 * Invitations cannot be used to spam an address or to probe whether an address
 * has an account, and a pending invitation cannot be taken by someone who only knows the
 * tenant id. Over HTTP; the expired and renewed invitations are made in process with a
 * clock in the past, against the same store.
 */
beforeAll(useLocalStoreInProcess);

const PASSWORD = 'invitee password';
const HOUR = 3600 * 1000;

const invite = (admin: Account, email: string) =>
  call<{ id: string; email: string; expiresAt: string }>('POST', '/auth/invitations', { cookies: admin.cookies, body: { email } });
const registerWith = (admin: Account, email: string, invitationToken?: string | null) =>
  call('POST', '/auth/register', {
    body: { name: 'Someone', email, password: PASSWORD, tenantId: admin.tenantId, ...(invitationToken === undefined ? {} : { invitationToken }) },
  });

/** An administrator as the service sees it, for invitations made in process. */
const principalOf = async (admin: Account) => authorize(admin.cookies.accessToken ?? '', Date.now());

/**
 * Runs `body` again when it straddled the edge of a fixed rate-limit window (which would
 * split its requests over two windows); each run must use fresh accounts and addresses.
 */
async function inOneWindow<T>(windowSeconds: number, body: () => Promise<T>): Promise<T> {
  for (;;) {
    const window = () => Math.floor(Date.now() / (windowSeconds * 1000));
    const started = window();
    const result = await body();
    if (window() === started) return result;
  }
}

/** Status, body shape and content type: what a caller can compare between two answers. */
const observable = (response: ApiResponse<Record<string, unknown>>) => ({
  status: response.status,
  contentType: response.headers.get('content-type'),
  fields: Object.keys(response.body).sort(),
  types: Object.values(response.body).map((value) => typeof value),
});

describe('invitations do not tell whether an address has an account', () => {
  it('answers an address that has an account exactly as an unknown one, the first time and again', async () => {
    const admin = await newTenantWithAdmin();
    const holder = await newTenantWithAdmin();
    const unknown = uniqueEmail('unknown');
    // The holder's own sign-up invitation is already there.
    const holderHad = outboxFor(holder.email).length;

    const toHolder = await invite(admin, holder.email);
    const toUnknown = await invite(admin, unknown);
    expect(observable(toHolder)).toEqual(observable(toUnknown));
    expect(toHolder.status).toBe(201);
    expect(toHolder.body).toEqual({ id: expect.any(String), email: holder.email, expiresAt: expect.any(String) });
    expect(Math.abs(Date.parse(toHolder.body.expiresAt) - Date.parse(toUnknown.body.expiresAt))).toBeLessThan(60_000);

    // Again, inside the resend window: both answer their pending invitation, unchanged.
    const again = [await invite(admin, holder.email), await invite(admin, unknown)];
    expect(again.map((response) => response.status)).toEqual([201, 201]);
    expect(again.map((response) => response.body)).toEqual([toHolder.body, toUnknown.body]);

    // Each address got one message: the unknown one an invitation with a token, the
    // account holder a notice with none; the holder's account is untouched.
    expect(outboxFor(unknown)).toHaveLength(1);
    expect(invitationTokenFor(unknown)).toEqual(expect.any(String));
    const toHolderMail = outboxFor(holder.email).slice(holderHad);
    expect(toHolderMail).toHaveLength(1);
    expect(toHolderMail[0]?.text).not.toMatch(/token=/);
    expect((await login(holder.email, holder.password)).response.status).toBe(200);
  });

  it('answers 403, not 409, to a registration of an address that has an account without a valid token', async () => {
    const admin = await newTenantWithAdmin();
    const holder = await newTenantWithAdmin();
    await invite(admin, holder.email);
    for (const token of [undefined, 'x'.repeat(43)]) {
      const response = await registerWith(admin, holder.email, token);
      expect(response.status).toBe(403);
      expect(response.body).toEqual(problem(403, 'forbidden'));
    }
  });
});

describe('a pending invitation needs its token', () => {
  it('refuses a member who knows the tenant id, without a token or with a wrong one; the invitee registers once', async () => {
    const admin = await newTenantWithAdmin();
    const member = await registerInvitee(admin, uniqueEmail('member'), PASSWORD);
    expect(member.status).toBe(200);
    const invitee = uniqueEmail('invitee');
    expect((await invite(admin, invitee)).status).toBe(201);
    const token = invitationTokenFor(invitee) ?? '';

    // The member knows the tenant id and the address, not the token.
    for (const attempt of [undefined, '', 'wrong-token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`]) {
      const response = await registerWith(admin, invitee, attempt);
      expect(response.status, String(attempt)).toBe(403);
      expect(response.body).toEqual(problem(403, 'forbidden'));
      expect(response.setCookies).toEqual([]);
    }

    const registered = await registerWith(admin, invitee, token);
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ user: { id: expect.any(String), name: 'Someone', email: invitee, tenantId: admin.tenantId } });

    const twice = await registerWith(admin, invitee, token);
    expect(twice.status).toBe(403);
    expect(twice.body).toEqual(problem(403, 'forbidden'));
  });

  it('refuses the token of an expired invitation', async () => {
    const admin = await newTenantWithAdmin();
    const email = uniqueEmail('expired');
    const sevenDaysAgo = Date.now() - INVITATION_DAYS * 24 * HOUR - 1000;
    await inviteUser(await principalOf(admin), email, sevenDaysAgo);
    const token = invitationTokenFor(email);
    expect(token).toEqual(expect.any(String));

    const response = await registerWith(admin, email, token);
    expect(response.status).toBe(403);
    expect(response.body).toEqual(problem(403, 'forbidden'));
  });

  it('keeps the token when a re-invitation sends no e-mail, and renews it when one is sent', async () => {
    const admin = await newTenantWithAdmin();
    const kept = uniqueEmail('kept');
    await invite(admin, kept);
    const first = invitationTokenFor(kept);
    await invite(admin, kept);
    expect(outboxFor(kept)).toHaveLength(1);
    expect((await registerWith(admin, kept, first)).status).toBe(200);

    // Mailed longer ago than the resend window: a new invitation, a new e-mail, a new token.
    const renewed = uniqueEmail('renewed');
    await inviteUser(await principalOf(admin), renewed, Date.now() - (INVITATION_RESEND_HOURS + 1) * HOUR);
    const old = invitationTokenFor(renewed);
    expect((await invite(admin, renewed)).status).toBe(201);
    expect(outboxFor(renewed)).toHaveLength(2);
    const fresh = invitationTokenFor(renewed);
    expect(fresh).not.toBe(old);
    expect((await registerWith(admin, renewed, old)).status).toBe(403);
    expect((await registerWith(admin, renewed, fresh)).status).toBe(200);
  });
});

describe('invitation rate limits', () => {
  it('answers the 21st invitation by one administrator within an hour with 429 and Retry-After', async () => {
    await inOneWindow(3600, async () => {
      const admin = await newTenantWithAdmin();
      for (let index = 0; index < 20; index += 1) {
        expect((await invite(admin, uniqueEmail(`n${index}`))).status, `invitation ${index + 1}`).toBe(201);
      }
      const refused = await invite(admin, uniqueEmail('n21'));
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(problem(429, 'rate-limited'));
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    });
  });

  it('answers the 4th invitation of one address within a day with 429, whichever tenant invites', async () => {
    await inOneWindow(86_400, async () => {
      const a = await newTenantWithAdmin();
      const b = await newTenantWithAdmin();
      const email = uniqueEmail('popular');
      for (let index = 0; index < 3; index += 1) expect((await invite(a, email)).status).toBe(201);
      const refused = await invite(b, email);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(outboxFor(email)).toHaveLength(1);
    });
  });

  it('sends exactly one e-mail for 10 parallel invitations of one pending address', async () => {
    const admin = await newTenantWithAdmin();
    const email = uniqueEmail('pending');
    const first = await invite(admin, email);
    expect(first.status).toBe(201);

    const responses = await Promise.all(Array.from({ length: 10 }, () => invite(admin, email)));
    expect(responses.every((response) => response.status === 201 || response.status === 429)).toBe(true);
    for (const response of responses.filter((each) => each.status === 201)) expect(response.body).toEqual(first.body);
    expect(outboxFor(email)).toHaveLength(1);
  });

  it('sends exactly one e-mail for 10 parallel first invitations of one address, all answered with that invitation', async () => {
    const admin = await newTenantWithAdmin();
    const email = uniqueEmail('burst');
    const responses = await Promise.all(Array.from({ length: 10 }, () => invite(admin, email)));
    const accepted = responses.filter((response) => response.status === 201);
    expect(accepted.length).toBeGreaterThanOrEqual(1);
    expect(new Set(accepted.map((response) => response.body.id)).size).toBe(1);
    expect(outboxFor(email)).toHaveLength(1);
    expect((await registerWith(admin, email, invitationTokenFor(email))).status).toBe(200);
  });
});
