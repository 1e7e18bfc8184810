import type { AuditRecord } from '../audit/model';
import { auditRecord } from '../audit/record';
import { randomUUID } from 'node:crypto';
import { appLink } from '../mail/links';
import {
  emailHasAccount,
  getInvitation,
  listPendingInvitationPage,
  putInvitationUnlessPending,
  takeBackInvitation,
  withdrawPendingInvitation,
} from './invitations-repository';
import { Forbidden, NotFound } from '../errors';
import { keyOrderedPage, type Page, type PageRequest } from '../pages';
import { logger } from '../log';
import { mailer } from '../mail/mailer';
import { invitationMail, invitationToExistingAccountMail } from '../mail/templates';
import { consume, INVITATIONS_PER_ADDRESS } from '../rate-limit';
import { hashInvitationToken, newInvitationToken } from './invitation-token';
import type { Invitation } from './model';
import type { Principal } from './principal';
import type { InvitationView, PendingInvitationView } from './schemas';

export const INVITATION_DAYS = 7;

/** A pending invitation mailed less than this long ago is answered as it is, with no new e-mail. */
export const INVITATION_RESEND_HOURS = 24;

const view = (invitation: Invitation): InvitationView => ({ id: invitation.id, email: invitation.email, expiresAt: invitation.expiresAt });

/**
 * Invite an e-mail into the caller's tenant (administrators only). The answer is the same
 * 201 whatever the address: it never tells whether the address has an account.
 *
 * - A new invitation gets a single-use token (32 random bytes; only its SHA-256 is stored)
 *   that travels only in the e-mail's link; registration needs it.
 * - An invitation of this address in this tenant that is pending and was mailed less than
 *   INVITATION_RESEND_HOURS ago is kept: the answer is that invitation, and nothing is sent.
 *   Otherwise a new one replaces it (the old token stops working) and is mailed. One
 *   conditional write decides, so parallel invitations of one address send one e-mail.
 * - An address that already has an account (in any tenant) is treated the same way, except
 *   that its e-mail is a notice that the address is taken and carries no token: the stored
 *   invitation can never admit anyone (registration would 409 on the e-mail anyway).
 */
export async function inviteUser(principal: Principal, email: string, nowMs: number): Promise<InvitationView> {
  if (principal.role !== 'ADMIN') throw new Forbidden('Only a tenant administrator may invite users');
  await countInvitationOf(email, nowMs);

  const nowEpoch = Math.floor(nowMs / 1000);
  const resendAfterEpoch = nowEpoch - INVITATION_RESEND_HOURS * 3600;
  // A second round only when the kept invitation was used by a registration in between.
  for (let round = 0; round < 3; round += 1) {
    const { invitation, token } = newInvitation({ tenantId: principal.tenantId, email, invitedBy: principal.userId, baseAccount: false }, nowMs);
    const record = auditRecord(
      { scope: { tenantId: principal.tenantId }, action: 'invitation.created', resource: { type: 'invitation', id: invitation.id } },
      nowMs,
    );
    const outcome = await putInvitationUnlessPending(invitation, nowEpoch, resendAfterEpoch, record);
    if (outcome.stored) {
      await mailInvitation(invitation, token, outcome.replaced, nowEpoch, record);
      return view(invitation);
    }
    const pending = await getInvitation(principal.tenantId, email);
    if (pending) return view(pending);
  }
  throw new Error('the invitation kept changing while it was being created');
}

/**
 * One more invitation of `email` today, counted across every tenant and every way an address
 * is invited (a member's invitation, a tenant's sign-up, a platform administrator's invitation
 * of a tenant's administrator); 429 past INVITATIONS_PER_ADDRESS. Keyed by the e-mail's hash
 * alone; the IP plays no part.
 */
export async function countInvitationOf(email: string, nowMs: number): Promise<void> {
  await consume(INVITATIONS_PER_ADDRESS.scope, INVITATIONS_PER_ADDRESS, { ip: '', email }, nowMs);
}

/** A new invitation, 7 days, with its single-use token (only its SHA-256 is stored). */
export function newInvitation(
  who: Pick<Invitation, 'tenantId' | 'email' | 'invitedBy'> & { baseAccount: boolean },
  nowMs: number,
): { invitation: Invitation; token: string } {
  const token = newInvitationToken();
  const expiresMs = nowMs + INVITATION_DAYS * 24 * 3600 * 1000;
  const invitation: Invitation = {
    id: randomUUID(),
    tenantId: who.tenantId,
    email: who.email,
    invitedBy: who.invitedBy,
    ...(who.baseAccount ? { baseAccount: true } : {}),
    createdAt: new Date(nowMs).toISOString(),
    expiresAt: new Date(expiresMs).toISOString(),
    expiresAtEpoch: Math.floor(expiresMs / 1000),
    mailedAtEpoch: Math.floor(nowMs / 1000),
    tokenHash: hashInvitationToken(token),
  };
  return { invitation, token };
}

/**
 * Send an invitation's e-mail: the link with its token, or, for an address that already has
 * an account, a notice that carries no token (nobody can hold an address they cannot read,
 * and only its owner learns it is taken). Both paths read the e-mail sentinel and send one
 * message, so they take about the same time. Throws when the message cannot be sent.
 */
export async function sendInvitationMail(invitation: Invitation, token: string): Promise<void> {
  const message = (await emailHasAccount(invitation.email))
    ? invitationToExistingAccountMail(invitation.email, invitation.tenantId, invitation.baseAccount === true)
    : invitationMail(invitation.email, invitation.tenantId, invitationLink(invitation, token), INVITATION_DAYS, invitation.baseAccount === true);
  await (await mailer()).send(message);
}

/**
 * The invitation e-mail (or, for an address that has an account, the notice). When the
 * message cannot be sent the invitation is taken back (a still pending one it replaced comes
 * back), so that a retry mails again and no token changes without an e-mail.
 */
async function mailInvitation(invitation: Invitation, token: string, replaced: Invitation | undefined, nowEpoch: number, record: AuditRecord): Promise<void> {
  try {
    await sendInvitationMail(invitation, token);
  } catch (error) {
    await takeBackInvitation(invitation, replaced, nowEpoch, record).catch((rollback: unknown) => {
      logger.error('could not take back an invitation whose e-mail failed', { error: rollback as Error });
    });
    throw error;
  }
}

/** The registration page with what it needs: the tenant, the address and the token. */
function invitationLink(invitation: Invitation, token: string): string {
  return appLink('register', { tenantId: invitation.tenantId, email: invitation.email, token });
}

const requireTenantAdmin = (principal: Principal, what: string): void => {
  if (principal.role !== 'ADMIN') throw new Forbidden(`Only a tenant administrator may ${what}`);
};

/** A page of the tenant's pending invitations, by e-mail (administrators only). */
export async function listPendingInvitations(principal: Principal, page: PageRequest, nowMs: number): Promise<Page<PendingInvitationView>> {
  requireTenantAdmin(principal, 'see the invitations');
  return keyOrderedPage({ tenantId: principal.tenantId, filters: { list: 'invitations' } }, page, async (at) => {
    const { items, lastSk } = await listPendingInvitationPage(principal.tenantId, Math.floor(nowMs / 1000), at);
    return {
      items: items.map(({ id, email, invitedBy, createdAt, expiresAt, baseAccount }) => ({
        id,
        email,
        invitedBy,
        createdAt,
        expiresAt,
        role: baseAccount ? ('ADMIN' as const) : ('MEMBER' as const),
      })),
      ...(lastSk === undefined ? {} : { lastSk }),
    };
  });
}

/** Withdraws a pending invitation: its link stops working at once (404 when there is no such pending invitation). */
export async function withdrawInvitation(principal: Principal, invitationId: string, nowMs: number): Promise<void> {
  requireTenantAdmin(principal, 'withdraw an invitation');
  const record = auditRecord(
    { scope: { tenantId: principal.tenantId }, action: 'invitation.withdrawn', resource: { type: 'invitation', id: invitationId } },
    nowMs,
  );
  if (!(await withdrawPendingInvitation(principal.tenantId, invitationId, Math.floor(nowMs / 1000), record))) throw new NotFound('No such pending invitation');
}
