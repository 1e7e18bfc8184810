import { getTenant } from '../db/repositories/tenants';
import { findUserByEmail, recordLogin } from '../db/repositories/users';
import { insertSession } from '../db/repositories/sessions';
import { Unauthorized } from '../errors';
import { consume, giveBackIfAlone, type RateLimit } from '../rate-limit';
import type { IssuedTokens } from './tokens';
import { decoyHash, verifyPassword } from './passwords';
import type { UserView } from './schemas';
import { openSession, toUserView, type ClientInfo } from './sessions';

const BAD_CREDENTIALS = 'Invalid e-mail or password';

/** The attempt limit of login: counted per e-mail and source IP. */
export interface AttemptLimit {
  scope: string;
  limit: RateLimit;
}

/**
 * Log in. Each attempt first takes a slot of the e-mail-and-IP window, in one conditional
 * write, before anything is read or compared: once `limit` attempts hold the window, every
 * attempt (the right password included) gets 429 at once, without bcrypt and without a
 * lookup, so it cannot tell an existing e-mail from an unknown one. A success alone in its
 * window gives its slot back (see `giveBackIfAlone`).
 *
 * An unknown e-mail still costs one bcrypt comparison (against a decoy hash), so it answers
 * the same 401 in about the same time as a wrong password.
 */
export async function login(
  input: { email: string; password: string; rememberMe: boolean },
  client: ClientInfo,
  nowMs: number,
  attempts?: AttemptLimit,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const slot = attempts ? await consume(attempts.scope, attempts.limit, { ip: client.ip, email: input.email }, nowMs) : undefined;

  const user = await findUserByEmail(input.email);
  const matches = await verifyPassword(input.password, user?.passwordHash ?? decoyHash());
  const tenant = user && matches ? await getTenant(user.tenantId) : undefined;
  if (!user || !matches || !tenant || tenant.status !== 'ACTIVE') throw new Unauthorized(BAD_CREDENTIALS);

  const { session, tokens } = await openSession(user, input.rememberMe, client, nowMs);
  await Promise.all([insertSession(session), recordLogin(user, new Date(nowMs).toISOString())]);
  if (slot) await giveBackIfAlone(slot);
  return { user: toUserView(user), tokens };
}
