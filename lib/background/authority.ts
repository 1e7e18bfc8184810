import { getTenant } from '../tenants/repository';
import { getUser } from '../auth/users-repository';

/**
 * Who a background job acts for, and what it needed when it started: a job runs long after the
 * request that made it (an upload link is valid 15 minutes, an import runs in steps), and the
 * permission it was made with may be gone by then. Every step of every job asks
 * `lostAuthority` first and, when it answers a reason, fails the job with it and writes nothing
 * more.
 *
 * - a tenant's job (an import, a CSV export): its tenant must still be ACTIVE, and the user who
 *   started it must still exist in it, with the role the job needed (an import, or an export of
 *   the audit trail, needs a tenant administrator);
 * - a platform job (a tenant's whole export): the platform administrator who asked for it must
 *   still be one. The exported tenant may be closed: exporting it before its deletion is the
 *   point of the job.
 */
export type JobAuthority =
  { kind: 'tenant'; tenantId: string; userId: string; role: 'ADMIN' | 'MEMBER' } | { kind: 'platform'; tenantId: string; userId: string };

/** Why the job may no longer go on, in words for its `failure`; null while it may. Two consistent reads. */
export async function lostAuthority(authority: JobAuthority): Promise<string | null> {
  const [tenant, user] = await Promise.all([getTenant(authority.tenantId), getUser(authority.tenantId, authority.userId)]);
  if (authority.kind === 'tenant' && tenant?.status !== 'ACTIVE') return 'The tenant was closed: its jobs were stopped';
  if (!user) return 'The user who started this job was removed: the job was stopped';
  if (authority.kind === 'platform' && !user.platformAdmin) return 'The user who started this job is no longer a platform administrator: the job was stopped';
  if (authority.kind === 'tenant' && authority.role === 'ADMIN' && user.role !== 'ADMIN')
    return 'The user who started this job is no longer a tenant administrator: the job was stopped';
  return null;
}
