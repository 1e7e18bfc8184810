import { randomUUID, timingSafeEqual } from 'node:crypto';
import { auditRecord, userActor } from '../audit/record';
import { getInvitation } from './invitations-repository';
import { getTenant } from '../tenants/repository';
import { insertUserWithSession } from './users-repository';
import { Forbidden, NotFound } from '../errors';
import { clearOnSuccess, consumeLimit, type ScopedLimit } from '../rate-limit';
import type { IssuedTokens } from './tokens';
import { hashInvitationToken } from './invitation-token';
import type { Credentials, User } from './model';
import { hashPassword } from './passwords';
import type { UserView } from './schemas';
import { openSession, toUserView, type ClientInfo } from './sessions';

const NOT_INVITED = 'Registration into this tenant is not permitted for this e-mail';

/** Two SHA-256 hex digests compared in constant time. */
const sameHash = (a: string, b: string): boolean => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Registration policy (docs/decisions.md, "Sign-up proves the mailbox"): every account is
 * opened through a link e-mailed to its address. The registrant presents the invitation's
 * token (`invitationToken`, from the e-mail's link): the invitation of the tenant's base
 * account (made by POST /tenants with `adminEmail`, or by a platform administrator) makes
 * its administrator; a member's invitation makes a member. A missing, wrong, used or expired
 * token is the same 403 whatever the address, so registration tells nothing about which
 * addresses have accounts.
 *
 * Cheap checks before expensive ones: the address's attempt slot (the sign-in ceiling per
 * IP), the tenant and the invitation are read and compared before bcrypt runs, so a request
 * without a valid invitation costs a few reads, never a hash. The transaction re-checks the
 * invitation (its delete compares the token's hash) and, for a base account, the tenant's
 * claim, so concurrent registrations cannot take one invitation or the base account twice.
 */
export async function register(
  input: { name: string; email: string; password: string; tenantId: string; invitationToken?: string | undefined },
  client: ClientInfo,
  nowMs: number,
  attempts: ScopedLimit,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const slot = await consumeLimit(attempts, { ip: client.ip }, nowMs);
  if (input.invitationToken === undefined) throw new Forbidden(NOT_INVITED);
  const tenant = await getTenant(input.tenantId);
  if (!tenant || tenant.status !== 'ACTIVE') throw new NotFound('No such tenant');

  const tokenHash = hashInvitationToken(input.invitationToken);
  const nowEpoch = Math.floor(nowMs / 1000);
  const invitation = await getInvitation(tenant.id, input.email);
  if (!invitation || invitation.expiresAtEpoch <= nowEpoch || !sameHash(invitation.tokenHash, tokenHash)) throw new Forbidden(NOT_INVITED);
  const baseAccount = invitation.baseAccount === true;
  // A base account's invitation admits only while the tenant has none, for its administrative e-mail.
  if (baseAccount && (tenant.baseAccountUserId !== null || tenant.adminEmail !== input.email)) throw new Forbidden(NOT_INVITED);

  const now = new Date(nowMs).toISOString();
  const user: User = {
    id: randomUUID(),
    tenantId: tenant.id,
    name: input.name,
    email: input.email,
    role: baseAccount ? 'ADMIN' : 'MEMBER',
    platformAdmin: false,
    sessionsValidFrom: null,
    credentialVersion: 0,
    sessionCount: 1,
    sessionOpenings: 1,
    createdAt: now,
    updatedAt: now,
  };
  const credentials: Credentials = {
    tenantId: tenant.id,
    userId: user.id,
    credentialVersion: user.credentialVersion,
    passwordHash: await hashPassword(input.password),
    resetTokenHash: null,
    totpSecret: null,
    totpLastStep: null,
    totpPendingSecret: null,
    recoveryCodeHashes: null,
  };
  const { session, tokens } = await openSession(user, false, client, nowMs, user.credentialVersion);
  // The first account registers; any later one accepts its invitation.
  const action = baseAccount ? 'user.registered' : 'invitation.accepted';
  await insertUserWithSession(
    user,
    credentials,
    { nowEpoch, tokenHash, baseAccount },
    session,
    auditRecord({ scope: { tenantId: tenant.id }, action, resource: { type: 'user', id: user.id }, actor: userActor(user) }, nowMs),
  );
  await clearOnSuccess(slot);
  return { user: toUserView(user), tokens };
}
