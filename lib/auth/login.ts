import { getTenant } from '../db/repositories/tenants';
import { findUserByEmail } from '../db/repositories/users';
import { insertSession } from '../db/repositories/sessions';
import { Unauthorized } from '../errors';
import type { IssuedTokens } from '../http/cookies';
import { decoyHash, verifyPassword } from './passwords';
import type { UserView } from './schemas';
import { openSession, toUserView, type ClientInfo } from './sessions';

const BAD_CREDENTIALS = 'Invalid e-mail or password';

/**
 * Log in. An unknown e-mail still costs one bcrypt comparison (against a decoy hash), so
 * it answers the same 401 in about the same time as a wrong password.
 */
export async function login(
  input: { email: string; password: string; rememberMe: boolean },
  client: ClientInfo,
  nowMs: number,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const user = await findUserByEmail(input.email);
  const matches = await verifyPassword(input.password, user?.passwordHash ?? decoyHash());
  if (!user || !matches) throw new Unauthorized(BAD_CREDENTIALS);

  const tenant = await getTenant(user.tenantId);
  if (!tenant || tenant.status !== 'ACTIVE') throw new Unauthorized(BAD_CREDENTIALS);

  const { session, tokens } = await openSession(user, input.rememberMe, client, nowMs);
  await insertSession(session);
  return { user: toUserView(user), tokens };
}
