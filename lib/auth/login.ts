import { getTenant } from '../db/repositories/tenants';
import { findUserByEmail } from '../db/repositories/users';
import { insertSession } from '../db/repositories/sessions';
import { Unauthorized } from '../errors';
import { assertNotBlocked, limitReached, recordFailure } from '../rate-limit';
import type { RateLimit } from '../routes';
import type { IssuedTokens } from '../http/cookies';
import { decoyHash, verifyPassword } from './passwords';
import type { UserView } from './schemas';
import { openSession, toUserView, type ClientInfo } from './sessions';

const BAD_CREDENTIALS = 'Invalid e-mail or password';

/** The failure limit of login: counted per e-mail and source IP. */
export interface FailureLimit {
  scope: string;
  limit: RateLimit;
}

/**
 * Log in. An unknown e-mail still costs one bcrypt comparison (against a decoy hash), so
 * it answers the same 401 in about the same time as a wrong password. After `limit`
 * failures for one e-mail from one IP in the window, every attempt (even a right one) gets
 * 429 until the window ends; of parallel failures, only `limit` are counted as 401s.
 */
export async function login(
  input: { email: string; password: string; rememberMe: boolean },
  client: ClientInfo,
  nowMs: number,
  failures?: FailureLimit,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const subject = { ip: client.ip, email: input.email };
  if (failures) await assertNotBlocked(failures.scope, failures.limit, subject, nowMs);

  const user = await findUserByEmail(input.email);
  const matches = await verifyPassword(input.password, user?.passwordHash ?? decoyHash());
  const tenant = user && matches ? await getTenant(user.tenantId) : undefined;
  if (!user || !matches || !tenant || tenant.status !== 'ACTIVE') {
    if (failures && !(await recordFailure(failures.scope, failures.limit, subject, nowMs))) throw limitReached(failures.limit, nowMs);
    throw new Unauthorized(BAD_CREDENTIALS);
  }

  const { session, tokens } = await openSession(user, input.rememberMe, client, nowMs);
  await insertSession(session);
  return { user: toUserView(user), tokens };
}
