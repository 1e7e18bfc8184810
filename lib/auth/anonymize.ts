import type { AuditChange, AuditEntry, AuditScope } from '../audit/model';
import { auditRecord } from '../audit/record';
import { readAuditPage, rewriteEntryCopies, writeWithEntry, type AuditFilter } from '../audit/repository';
import { deleteItemsOfRemovedUser } from './sessions-repository';
import { getUser } from './users-repository';
import { Conflict, Forbidden, NotFound } from '../errors';
import type { Principal } from './principal';
import type { AnonymizedUserView } from './schemas';

/**
 * POST /users/{id}/anonymize: the name and e-mail of a removed user leave the tenant's trail
 * (LGPD Art. 18 IV and VI), while ids, actions and times stay, so the trail keeps its
 * integrity (docs/decisions.md, "The holder's rights"):
 *
 * 1. the user must be gone (409 while it exists) and must have been removed from this tenant:
 *    its `user.removed` entry is in the tenant's trail (404 otherwise, and nothing changes: a
 *    platform administrator who acted in the tenant, another tenant's user, an unknown id);
 * 2. each entry the user made (its actor's list) gets the placeholder name, and each user.*
 *    entry about the user (its resource's list) gets the placeholders in its `changes`, in
 *    every copy of the entry; an entry already anonymized is not written again;
 * 3. what is left in the user's own partition (sessions, logged-out jtis, Idempotency-Key
 *    records) is deleted;
 * 4. the call's own `user.anonymized` entry, every call.
 *
 * Bounded: at most ANONYMIZE_ENTRIES entries rewritten, MAX_ENTRIES_READ read per list and
 * ANONYMIZE_ITEMS_DELETED items deleted a call; past them the answer is 202 with `complete:
 * false`, the call's entry records where it stopped (`changes`: `resumeAt`, a list position)
 * and the next call goes on from there. After a complete call, the next one reads only what
 * came since (its entries), so a second call writes nothing but its own entry.
 */

export const ANONYMIZED_NAME = 'Anonymized user';
/** An address that can never receive mail (RFC 2606 `.invalid`), unique per user. */
export const anonymizedEmail = (userId: string): string => `anonymized+${userId}@invalid`;

/** Entries rewritten per call (each up to three UpdateItems): well within the function's timeout. */
export const ANONYMIZE_ENTRIES = 300;
/** Items of the user's partition deleted per call. */
export const ANONYMIZE_ITEMS_DELETED = 300;
/** Entries read per list and call (the ones already done are read again, not written). */
const MAX_ENTRIES_READ = 5000;
const PAGE = 500;

/** What a change's value becomes: the placeholders for the user's name and e-mail fields and for any value that is a name or e-mail the user had. */
function scrubbed(change: AuditChange, userId: string, names: Set<string>): AuditChange {
  const emails = new Set<unknown>();
  if (change.field === 'email') [change.before, change.after].forEach((value) => value !== null && emails.add(value));
  const scrub = (value: unknown): unknown => {
    if (value === null) return null;
    if (change.field === 'email' || emails.has(value)) return anonymizedEmail(userId);
    if (change.field === 'name' || (typeof value === 'string' && names.has(value))) return ANONYMIZED_NAME;
    return value;
  };
  return { field: change.field, before: scrub(change.before), after: scrub(change.after) };
}

/** The entry as anonymized: the actor's name when it is the user, the changes when the entry is about the user. */
function anonymized(entry: AuditEntry, userId: string, names: Set<string>): Pick<AuditEntry, 'actor' | 'changes'> {
  const actor = entry.actor.type === 'user' && entry.actor.id === userId ? { ...entry.actor, name: ANONYMIZED_NAME } : entry.actor;
  const aboutUser = entry.resource.type === 'user' && entry.resource.id === userId;
  const changes = aboutUser && entry.changes ? entry.changes.map((change) => scrubbed(change, userId, names)) : entry.changes;
  return { actor, changes };
}

/** An entry's place in every list it is in (lib/db/keys `auditEntry`: `occurredAt#id`). */
const positionOf = (entry: AuditEntry): string => `${entry.occurredAt}#${entry.id}`;

/** The field of a `user.anonymized` entry that stopped at a bound: every entry after this position (and at it, maybe) is done. */
const RESUME_FIELD = 'resumeAt';

/**
 * Where the last call left off, from the newest `user.anonymized` entry of the user: entries
 * up to `toSk` are left to do (`fromSk` after a complete call: only what came since). None: no call yet.
 */
async function lastProgress(scope: AuditScope, userId: string): Promise<{ found: boolean; fromSk: string; toSk: string }> {
  const { entries } = await readAuditPage(scope, { filter: { resourceId: userId }, fromSk: '0', toSk: '~', limit: PAGE });
  const last = entries.find((entry) => entry.action === 'user.anonymized');
  if (!last) return { found: entries.length > 0, fromSk: '0', toSk: '~' };
  const resume = last.changes?.find((change) => change.field === RESUME_FIELD)?.after;
  return typeof resume === 'string' ? { found: true, fromSk: '0', toSk: resume } : { found: true, fromSk: positionOf(last), toSk: '~' };
}

/** Up to `max` entries of a list between two positions, newest first, and whether the list goes on. */
async function readRange(
  scope: AuditScope,
  filter: AuditFilter,
  range: { fromSk: string; toSk: string },
  max: number,
): Promise<{ entries: AuditEntry[]; more: boolean }> {
  const entries: AuditEntry[] = [];
  let after: Record<string, string> | undefined;
  do {
    const page = await readAuditPage(scope, { filter, ...range, limit: Math.min(PAGE, max - entries.length), ...(after ? { after } : {}) });
    entries.push(...page.entries);
    after = page.next;
  } while (after && entries.length < max);
  return { entries, more: after !== undefined };
}

/** Anonymizes a removed user of the caller's tenant; `complete` false when a bound stopped it (call again). */
export async function anonymizeUser(principal: Principal, userId: string, nowMs: number): Promise<AnonymizedUserView> {
  if (principal.role !== 'ADMIN') throw new Forbidden('Only a tenant administrator may manage its users');
  const scope = { tenantId: principal.tenantId };
  if (await getUser(principal.tenantId, userId)) throw new Conflict('The user still exists: remove it first (DELETE /users/{id})');
  // Only a user this tenant removed: its removal is in the tenant's trail, in the transaction that
  // removed it. An id the trail merely mentions (a platform administrator who acted here, another
  // tenant's user) was never removed from this tenant, and is not this tenant's to anonymize.
  const removal = await readRange(scope, { resourceId: userId, action: 'user.removed' }, { fromSk: '0', toSk: '~' }, 1);
  if (removal.entries.length === 0) throw new NotFound('No such user');

  const range = await lastProgress(scope, userId);
  const [acted, about] = await Promise.all([
    readRange(scope, { actorId: userId }, range, MAX_ENTRIES_READ),
    readRange(scope, { resourceId: userId }, range, MAX_ENTRIES_READ),
  ]);
  if (!range.found && acted.entries.length === 0 && about.entries.length === 0) throw new NotFound('No such user');

  // A list read only in part: its entries older than the last one read wait for the next call.
  const cutoff =
    [acted, about]
      .filter((list) => list.more)
      .map((list) => positionOf(list.entries.at(-1) as AuditEntry))
      .sort()
      .at(-1) ?? '';
  const names = new Set(
    acted.entries.flatMap((entry) =>
      entry.actor.id === userId && entry.actor.name !== null && entry.actor.name !== ANONYMIZED_NAME ? [entry.actor.name] : [],
    ),
  );
  const entries = [...new Map([...acted.entries, ...about.entries].map((entry) => [entry.id, entry])).values()]
    .filter((entry) => positionOf(entry) >= cutoff)
    .sort((a, b) => (positionOf(a) < positionOf(b) ? 1 : -1));
  let resumeAt: string | null = cutoff === '' ? null : cutoff;
  let rewritten = 0;
  for (const entry of entries) {
    const next = anonymized(entry, userId, names);
    if (JSON.stringify(next) === JSON.stringify({ actor: entry.actor, changes: entry.changes })) continue;
    if (rewritten === ANONYMIZE_ENTRIES) {
      resumeAt = positionOf(entry);
      break;
    }
    await rewriteEntryCopies(scope, entry, next);
    rewritten += 1;
  }
  const { more } = await deleteItemsOfRemovedUser(principal.tenantId, userId, ANONYMIZE_ITEMS_DELETED);

  const changes = resumeAt === null ? undefined : [{ field: RESUME_FIELD, before: null, after: resumeAt }];
  await writeWithEntry([], auditRecord({ scope, action: 'user.anonymized', resource: { type: 'user', id: userId }, ...(changes ? { changes } : {}) }, nowMs));
  return { id: userId, name: ANONYMIZED_NAME, email: anonymizedEmail(userId), complete: resumeAt === null && !more };
}
