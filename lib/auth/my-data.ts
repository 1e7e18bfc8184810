import type { AuditEntry } from '../audit/model';
import { readAuditPage } from '../audit/repository';
import { getInvitation, listInvitationsSentBy } from './invitations-repository';
import { listSessionsOfUserBounded } from './sessions-repository';
import { getTenant } from '../tenants/repository';
import { getUser } from './users-repository';
import { NotFound } from '../errors';
import type { Invitation } from './model';
import type { Principal } from './principal';
import type { MyDataView } from './schemas';

/**
 * GET /auth/me/data: the holder's copy of their data (LGPD Art. 18 II and 19), read from the
 * items that hold it, each read bounded (docs/decisions.md, "The holder's rights").
 */

/** The newest audit entries of the user the document carries; older ones are named by `auditEntriesRest`. */
export const MY_DATA_AUDIT_ENTRIES = 5000;
/** One Query of the actor's list reads this many entries. */
const AUDIT_PAGE = 500;
/** Session items read at most: far above the cap of live sessions, as revoked ones wait for their TTL. */
const MAX_SESSIONS_READ = 1000;
/** Invitation items of the tenant read at most while looking for the user's. */
const MAX_INVITATIONS_READ = 5000;

const invitationView = (invitation: Invitation) => ({
  id: invitation.id,
  email: invitation.email,
  invitedBy: invitation.invitedBy,
  createdAt: invitation.createdAt,
  expiresAt: invitation.expiresAt,
});

/** The newest entries of the user's actor list, at most MY_DATA_AUDIT_ENTRIES, and whether older ones exist. */
async function auditEntriesOf(tenantId: string, userId: string): Promise<{ entries: AuditEntry[]; truncated: boolean }> {
  const entries: AuditEntry[] = [];
  let after: Record<string, string> | undefined;
  do {
    const page = await readAuditPage(
      { tenantId },
      { filter: { actorId: userId }, fromSk: '0', toSk: '~', limit: Math.min(AUDIT_PAGE, MY_DATA_AUDIT_ENTRIES - entries.length), ...(after ? { after } : {}) },
    );
    entries.push(...page.entries);
    after = page.next;
  } while (after && entries.length < MY_DATA_AUDIT_ENTRIES);
  return { entries, truncated: after !== undefined };
}

/** The signed-in user's data, whole: their own items only, never another user's and never a secret. */
export async function myData(principal: Principal, nowMs: number): Promise<MyDataView> {
  const { tenantId, userId } = principal;
  const user = await getUser(tenantId, userId);
  if (!user) throw new NotFound('No such user');
  const [tenant, { sessions }, received, { invitations: sent }, audit] = await Promise.all([
    getTenant(tenantId),
    listSessionsOfUserBounded(tenantId, userId, MAX_SESSIONS_READ),
    getInvitation(tenantId, user.email),
    listInvitationsSentBy(tenantId, userId, MAX_INVITATIONS_READ),
    auditEntriesOf(tenantId, userId),
  ]);
  const now = new Date(nowMs).toISOString();
  const oldest = audit.entries.at(-1);
  return {
    generatedAt: now,
    user: {
      id: user.id,
      tenantId: user.tenantId,
      tenantName: tenant?.name ?? null,
      name: user.name,
      email: user.email,
      role: user.role,
      platformAdmin: user.platformAdmin,
      sessionsValidFrom: user.sessionsValidFrom ?? null,
      credentialVersion: user.credentialVersion,
      sessionCount: user.sessionCount ?? null,
      sessionOpenings: user.sessionOpenings ?? null,
      lastLoginAt: user.lastLoginAt ?? null,
      totpEnabledAt: user.totpEnabledAt ?? null,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    // Revoked sessions too, until they expire (their TTL then removes them); never the refresh jtis.
    sessions: sessions
      .filter((session) => session.expiresAt > now)
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))
      .map((session) => ({
        id: session.id,
        status: session.status,
        rememberMe: session.rememberMe,
        createdAt: session.createdAt,
        lastActiveAt: session.lastActiveAt,
        expiresAt: session.expiresAt,
        ipAddress: session.ipAddress,
        userAgent: session.userAgent,
        revokedAt: session.revokedAt ?? null,
        current: session.id === principal.sessionId,
      })),
    // How many recovery codes are left, as the user item counts them: never the hashes, never the TOTP secret (this function cannot read the credentials item).
    secondFactor: {
      enabled: Boolean(user.totpEnabledAt),
      enabledAt: user.totpEnabledAt ?? null,
      recoveryCodesRemaining: user.totpEnabledAt ? (user.recoveryCodesLeft ?? 0) : 0,
    },
    invitations: { received: received ? [invitationView(received)] : [], sent: sent.map(invitationView) },
    auditEntries: audit.entries,
    auditEntriesTruncated: audit.truncated,
    auditEntriesRest: audit.truncated && oldest ? `GET /audit-events?actorId=${userId}&to=${encodeURIComponent(oldest.occurredAt)}` : null,
  };
}
