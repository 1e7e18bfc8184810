import { auditRecord } from '../audit/record';
import { readAuthorizationState } from '../db/repositories/authorization';
import { replacePassword } from '../db/repositories/users';
import { Conflict, Unauthorized, ValidationError } from '../errors';
import { mailer } from '../mail/mailer';
import { countSessionsRevoked } from '../metrics';
import { passwordChangedMail } from '../mail/templates';
import { consume, giveBackIfAlone } from '../rate-limit';
import type { AttemptLimit } from './login';
import { hashPassword, verifyPassword } from './passwords';
import { sendQuietly } from '../mail/send-quietly';
import type { Principal } from './principal';
import type { UserView } from './schemas';
import { openSession, toUserView, type ClientInfo } from './sessions';
import type { IssuedTokens } from './tokens';

/**
 * A signed-in user changes their password. The current password is checked under the login
 * throttle (the same e-mail-and-IP window: a wrong one counts as a failed login, a success
 * alone in its window gives its slot back). The new one follows the registration rules (the
 * body schema). Every session of the user ends, the one in use included, and a new session
 * for this client replaces it in the same transaction as the password: the caller goes on
 * with fresh cookies. A notification e-mail follows.
 */
export async function changePassword(
  principal: Principal,
  input: { currentPassword: string; newPassword: string },
  client: ClientInfo,
  nowMs: number,
  attempts: AttemptLimit,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const slot = await consume(attempts.scope, attempts.limit, { ip: client.ip, email: principal.email }, nowMs);
  const { user, session } = await readAuthorizationState({ tenantId: principal.tenantId, userId: principal.userId, sessionId: principal.sessionId });
  if (!user || !session) throw new Unauthorized('The session has ended');
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new ValidationError([{ field: 'currentPassword', message: 'is not the current password' }]);
  }

  const passwordHash = await hashPassword(input.newPassword);
  const { session: next, tokens } = await openSession(user, session.rememberMe, client, nowMs);
  const record = auditRecord({ scope: { tenantId: user.tenantId }, action: 'auth.password_changed', resource: { type: 'user', id: user.id } }, nowMs);
  if (!(await replacePassword(user, passwordHash, next.createdAt, next, record))) throw new Conflict('The password was changed meanwhile; sign in again');
  countSessionsRevoked('password_changed');
  await giveBackIfAlone(slot);
  await sendQuietly(async () => (await mailer()).send(passwordChangedMail(user.email)), 'password change notification');
  return { user: toUserView(user), tokens };
}
