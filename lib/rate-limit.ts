import { createHash } from 'node:crypto';
import { clearWindow, decrementIfAny, incrementBelow, incrementBelowCounting } from './db/counters';
import { TooManyRequests } from './errors';

/**
 * The one rate limiter, driven by the `rateLimits` of each route in the manifest: fixed
 * windows counted in DynamoDB (one conditional write per limited request, exact under
 * concurrency), answering 429 with Retry-After until the window ends.
 */

/** A fixed-window limit, counted in the table (below). */
export interface RateLimit {
  /** What one counter is keyed by. */
  per: 'ip' | 'user' | 'email' | 'email-and-ip';
  limit: number;
  windowSeconds: number;
  /**
   * What takes a slot:
   * - `requests` (default): every request. The handler chain takes it before any other work
   *   when the limit is per IP or per user; a limit keyed by an e-mail is taken by the
   *   service, which alone has read the address.
   * - `attempts`: every password or registration check. The service takes the slot itself,
   *   before any lookup and before bcrypt; a success clears its e-mail-and-IP window and gives
   *   its per-IP slot back (`clearOnSuccess`), so only failures accumulate.
   * - `searches`: a supplier list request with `search` (taken by the service).
   * - `full-reads`: a coverage page that the precomputed index does not serve (taken by the
   *   service when it falls back to reading the catalog).
   */
  counts?: 'requests' | 'attempts' | 'searches' | 'full-reads';
  /** Routes that share one counter name it here; else each route counts apart. */
  scope?: string;
}

/**
 * How often one address may be invited, 3 a day, counted across every tenant and every way of
 * inviting (a member's invitation, a sign-up's, a platform administrator's invitation of a
 * tenant's administrator), so that new tenants cannot be used to mail one address over and
 * over; every request counts, those answered with the pending invitation and those for
 * addresses that have an account included. The invitation service takes it (lib/auth/
 * invitations); the manifest lists it on the three routes, for their grants and their docs.
 */
export const INVITATIONS_PER_ADDRESS = { per: 'email', limit: 3, windowSeconds: 24 * 3600, scope: 'invitations-per-address' } as const satisfies RateLimit;

export interface LimitSubject {
  /** The caller's address (lib/http/request.ts `clientIp`), never X-Forwarded-For. */
  ip: string;
  userId?: string;
  email?: string;
}

/** The counter scope of a limit: the scope it names, else its route's method and path. */
export const limitScope = (route: { method: string; path: string }, limit: RateLimit): string => limit.scope ?? `${route.method} ${route.path}`;

/** Whether the handler chain takes this limit's slot (every request, keyed by what the chain knows). */
export const takenByChain = (limit: RateLimit): boolean => (limit.counts ?? 'requests') === 'requests' && (limit.per === 'ip' || limit.per === 'user');

/** A limit of a route, with the scope its counter lives under. */
export interface ScopedLimit {
  scope: string;
  limit: RateLimit;
}

/** The route's limit keyed `per` (and counting `counts`, when given), with its scope; throws when the manifest has none (a wiring mistake). */
export function routeLimit(
  route: { method: string; path: string; rateLimits?: readonly RateLimit[] },
  per: RateLimit['per'],
  counts?: RateLimit['counts'],
): ScopedLimit {
  const limit = route.rateLimits?.find((candidate) => candidate.per === per && (counts === undefined || (candidate.counts ?? 'requests') === counts));
  if (!limit) throw new Error(`${route.method} ${route.path} has no rate limit per ${per}${counts ? ` counting ${counts}` : ''}`);
  return { scope: limitScope(route, limit), limit };
}

function subjectKey(limit: RateLimit, subject: LimitSubject): string {
  switch (limit.per) {
    case 'ip':
      return subject.ip;
    case 'user':
      if (!subject.userId) throw new Error('a per-user limit needs an authenticated user');
      return subject.userId;
    case 'email':
      if (!subject.email) throw new Error('a per-e-mail limit needs an e-mail');
      return createHash('sha256').update(subject.email).digest('base64url');
    case 'email-and-ip':
      // No e-mail addresses in keys: a hash names the pair.
      return createHash('sha256')
        .update(`${subject.email ?? ''}\n${subject.ip}`)
        .digest('base64url');
  }
}

function windowOf(limit: RateLimit, nowMs: number) {
  const windowMs = limit.windowSeconds * 1000;
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  return { windowStart, endsAt: windowStart + windowMs };
}

function refusal(endsAt: number, nowMs: number): TooManyRequests {
  return new TooManyRequests((endsAt - nowMs) / 1000);
}

export interface Slot {
  counter: { scope: string; subject: string; windowStart: number };
  per: RateLimit['per'];
}

/**
 * Windows this process found full, and until when it refuses them without asking the store:
 * a flood past a limit then costs no write at all (on Lambda, per execution environment; locally,
 * for the whole emulator). A window of requests only fills, so it is known full until it ends.
 * One of attempts can get a slot back (`clearOnSuccess`) in another process, so it is known full
 * for at most KNOWN_FULL_ATTEMPTS_MS: an honest user is held back that long at most beyond the
 * store's answer. Bounded to KNOWN_FULL_ENTRIES (the oldest go first).
 */
const knownFull = new Map<string, number>();
const KNOWN_FULL_ENTRIES = 10_000;
export const KNOWN_FULL_ATTEMPTS_MS = 1_000;

function rememberFull(key: string, until: number): void {
  knownFull.delete(key);
  knownFull.set(key, until);
  for (const oldest of knownFull.keys()) {
    if (knownFull.size <= KNOWN_FULL_ENTRIES) break;
    knownFull.delete(oldest);
  }
}

/** Forget every window known full (tests that reuse one subject and one clock across cases). */
export function forgetFullWindows(): void {
  knownFull.clear();
}

/**
 * Take one slot of the window; 429 when it already holds `limit`. One conditional write, so
 * N parallel requests can never get more than `limit` through; once this process saw the
 * window full, it refuses without the write (`knownFull`). Limits that count attempts take
 * their slot before the expensive check (see `clearOnSuccess`).
 */
export async function consume(scope: string, limit: RateLimit, subject: LimitSubject, nowMs: number): Promise<Slot> {
  return (await take(scope, limit, subject, nowMs, false)).slot;
}

/** `consume`, also answering how many slots the window has left and in how many seconds it ends (the RateLimit header fields). */
export async function consumeCounted(
  scope: string,
  limit: RateLimit,
  subject: LimitSubject,
  nowMs: number,
): Promise<{ slot: Slot; remaining: number; resetSeconds: number }> {
  const { slot, count, endsAt } = await take(scope, limit, subject, nowMs, true);
  return { slot, remaining: Math.max(0, limit.limit - (count ?? limit.limit)), resetSeconds: (endsAt - nowMs) / 1000 };
}

async function take(
  scope: string,
  limit: RateLimit,
  subject: LimitSubject,
  nowMs: number,
  counted: boolean,
): Promise<{ slot: Slot; count: number | undefined; endsAt: number }> {
  const { windowStart, endsAt } = windowOf(limit, nowMs);
  const counter = { scope, subject: subjectKey(limit, subject), windowStart };
  const key = `${scope}\n${counter.subject}\n${windowStart}`;
  const fullUntil = knownFull.get(key);
  if (fullUntil !== undefined && nowMs < fullUntil) throw refusal(endsAt, nowMs);
  const expiresAtEpoch = Math.ceil(endsAt / 1000);
  let count: number | undefined;
  let full: boolean;
  if (counted) {
    count = await incrementBelowCounting(counter, limit.limit, expiresAtEpoch);
    full = count === undefined;
  } else {
    full = !(await incrementBelow(counter, limit.limit, expiresAtEpoch));
  }
  if (full) {
    rememberFull(key, limit.counts === 'attempts' ? Math.min(endsAt, nowMs + KNOWN_FULL_ATTEMPTS_MS) : endsAt);
    throw refusal(endsAt, nowMs);
  }
  return { slot: { counter, per: limit.per }, count, endsAt };
}

/** `consume` for a limit of the manifest (`routeLimit`). */
export const consumeLimit = (scoped: ScopedLimit, subject: LimitSubject, nowMs: number): Promise<Slot> => consume(scoped.scope, scoped.limit, subject, nowMs);

/**
 * What a successful attempt does to the slots it took (docs/decisions.md, "Login attempt
 * limit"): the e-mail-and-IP window is cleared, because whoever sent the right password
 * already has it, so one typo never turns into a lockout; a per-IP slot is given back, so an
 * office behind one address counts only its failures against the ceiling. Each is one
 * conditional write; a burst still runs at most `limit` checks, since every attempt holds its
 * slot until it is known to be right.
 */
export async function clearOnSuccess(...slots: (Slot | undefined)[]): Promise<void> {
  await Promise.all(
    slots.flatMap((slot) => (slot === undefined ? [] : [slot.per === 'email-and-ip' ? clearWindow(slot.counter) : decrementIfAny(slot.counter)])),
  );
}
