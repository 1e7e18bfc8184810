import { randomUUID } from 'node:crypto';
import { config } from '../config';
import { putInvitation } from '../db/repositories/invitations';
import { findUserByEmail } from '../db/repositories/users';
import { Conflict, Forbidden } from '../errors';
import { mailer } from '../mail/mailer';
import { invitationMail } from '../mail/templates';
import type { Principal } from './principal';

export const INVITATION_DAYS = 7;

export interface InvitationView {
  id: string;
  email: string;
  expiresAt: string;
}

/**
 * Invite an e-mail into the caller's tenant (administrators only). Inviting again renews
 * the invitation; an address that already has an account anywhere is a 409, since one
 * e-mail is one account across the service.
 */
export async function inviteUser(principal: Principal, email: string, nowMs: number): Promise<InvitationView> {
  if (principal.role !== 'ADMIN') throw new Forbidden('Only a tenant administrator may invite users');
  if (await findUserByEmail(email)) throw new Conflict('An account with this e-mail already exists');

  const expiresMs = nowMs + INVITATION_DAYS * 24 * 3600 * 1000;
  const invitation = {
    id: randomUUID(),
    tenantId: principal.tenantId,
    email,
    invitedBy: principal.userId,
    createdAt: new Date(nowMs).toISOString(),
    expiresAt: new Date(expiresMs).toISOString(),
    expiresAtEpoch: Math.floor(expiresMs / 1000),
  };
  await putInvitation(invitation);

  const link = new URL('/register', config().APP_URL);
  link.searchParams.set('tenantId', principal.tenantId);
  link.searchParams.set('email', email);
  await (await mailer()).send(invitationMail(email, principal.tenantId, link.toString(), INVITATION_DAYS));
  return { id: invitation.id, email: invitation.email, expiresAt: invitation.expiresAt };
}
