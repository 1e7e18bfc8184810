import { auditRecord, userActor } from '../audit/record';
import { randomUUID } from 'node:crypto';
import { getTenant } from '../db/repositories/tenants';
import { insertUserWithSession, type Admission } from '../db/repositories/users';
import { Forbidden, NotFound } from '../errors';
import type { IssuedTokens } from './tokens';
import { hashInvitationToken } from './invitation-token';
import type { User } from './model';
import { hashPassword } from './passwords';
import type { UserView } from './schemas';
import { openSession, toUserView, type ClientInfo } from './sessions';

const NOT_INVITED = 'Registration into this tenant is not permitted for this e-mail';

/**
 * Registration policy (contract section 3): a tenant's first account is its base account
 * and its administrator; when the tenant was created with an administrative e-mail, only
 * that e-mail may take it. Later accounts need a pending invitation for their e-mail in
 * that tenant and its token (`invitationToken`, from the invitation e-mail's link): a
 * missing, wrong, used or expired token is the same 403. The transaction re-checks both (the
 * invitation's delete compares the token's hash), so concurrent registrations cannot take
 * the base account or one invitation twice. The base account needs no token.
 */
export async function register(
  input: { name: string; email: string; password: string; tenantId: string; invitationToken?: string | undefined },
  client: ClientInfo,
  nowMs: number,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const tenant = await getTenant(input.tenantId);
  if (!tenant || tenant.status !== 'ACTIVE') throw new NotFound('No such tenant');

  let admission: Admission;
  let role: User['role'];
  if (tenant.baseAccountUserId === null) {
    if (tenant.adminEmail !== null && tenant.adminEmail !== input.email) {
      throw new Forbidden('Only the administrative e-mail of this tenant may register its first account');
    }
    admission = { kind: 'base-account' };
    role = 'ADMIN';
  } else {
    // No token, no bcrypt: refused before any work.
    if (input.invitationToken === undefined) throw new Forbidden(NOT_INVITED);
    admission = { kind: 'invitation', nowEpoch: Math.floor(nowMs / 1000), tokenHash: hashInvitationToken(input.invitationToken) };
    role = 'MEMBER';
  }

  const now = new Date(nowMs).toISOString();
  const user: User = {
    id: randomUUID(),
    tenantId: tenant.id,
    name: input.name,
    email: input.email,
    passwordHash: await hashPassword(input.password),
    role,
    platformAdmin: false,
    sessionsValidFrom: null,
    resetTokenHash: null,
    createdAt: now,
    updatedAt: now,
  };
  const { session, tokens } = await openSession(user, false, client, nowMs);
  // The first account registers; any later one accepts its invitation.
  const action = admission.kind === 'invitation' ? 'invitation.accepted' : 'user.registered';
  await insertUserWithSession(user, admission, session, auditRecord({ scope: { tenantId: tenant.id }, action, resource: { type: 'user', id: user.id }, actor: userActor(user) }, nowMs));
  return { user: toUserView(user), tokens };
}
