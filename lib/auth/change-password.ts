import { auditRecord } from '../audit/record';
import { readAccountState } from './credentials-repository';
import { CredentialsChanged } from './session-opening';
import { replacePassword } from './users-repository';
import { Conflict, Unauthorized, ValidationError } from '../errors';
import { mailer } from '../mail/mailer';
import { countSessionsRevoked } from '../metrics';
import { passwordChangedMail } from '../mail/templates';
import { clearOnSuccess, consumeLimit, type ScopedLimit } from '../rate-limit';
import { hashPassword, verifyPassword } from './passwords';
import { sendQuietly } from '../mail/send-quietly';
import type { Principal } from './principal';
import type { UserView } from './schemas';
import { evictionRecord, openSession, toUserView, type ClientInfo } from './sessions';
import { atCheckedVersion } from './session-state';
import type { IssuedTokens } from './tokens';

/**
 * A signed-in user changes their password. The current password is checked in login's
 * password-attempt window (the same e-mail-and-IP window: a wrong one counts as a failed
 * attempt, a right one clears it). The new one follows the registration rules (the body
 * schema). In one transaction conditioned on the credential version the check read, the
 * password changes and the version moves on, which ends every session of the user, the one in
 * use included, and a new session for this client replaces it: the caller goes on with fresh
 * cookies. A notification e-mail follows.
 */
export async function changePassword(
  principal: Principal,
  input: { currentPassword: string; newPassword: string },
  client: ClientInfo,
  nowMs: number,
  attempts: ScopedLimit,
): Promise<{ user: UserView; tokens: IssuedTokens }> {
  const slot = await consumeLimit(attempts, { ip: client.ip, email: principal.email }, nowMs);
  const {
    user: found,
    credentials,
    session,
  } = await readAccountState({ tenantId: principal.tenantId, userId: principal.userId, sessionId: principal.sessionId });
  if (!found || !credentials || !session) throw new Unauthorized('The session has ended');
  // The change is conditioned on the version of the password checked (lib/auth/session-state).
  const user = atCheckedVersion(found, credentials);
  if (!(await verifyPassword(input.currentPassword, credentials.passwordHash))) {
    throw new ValidationError([{ field: 'currentPassword', message: 'is not the current password' }]);
  }
  await clearOnSuccess(slot);

  const passwordHash = await hashPassword(input.newPassword);
  const { session: next, tokens } = await openSession(user, session.rememberMe, client, nowMs, user.credentialVersion + 1);
  const record = auditRecord({ scope: { tenantId: user.tenantId }, action: 'auth.password_changed', resource: { type: 'user', id: user.id } }, nowMs);
  try {
    await replacePassword(user, passwordHash, next, record, nowMs, evictionRecord(user, nowMs));
  } catch (error) {
    if (error instanceof CredentialsChanged) throw new Conflict('The password was changed meanwhile; sign in again');
    throw error;
  }
  countSessionsRevoked('password_changed');
  await sendQuietly(async () => (await mailer()).send(passwordChangedMail(user.email)), 'password change notification');
  return { user: toUserView(user), tokens };
}
