import { createHash } from 'node:crypto';
import { decrementIfOnly, incrementBelow } from './db/repositories/counters';
import { TooManyRequests } from './errors';

/**
 * The one rate limiter, driven by the `rateLimit` of each route in the manifest: fixed
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
   * Default `requests`: the handler chain counts every request before any work.
   * `attempts` (login): the service takes the slot itself, once it knows the e-mail, before
   * the password check; a success alone in its window gives the slot back (see lib/rate-limit).
   */
  counts?: 'requests' | 'attempts';
  /** Routes that share one counter name it here (the session routes: `sessions`); else each route counts apart. */
  scope?: string;
}

export interface LimitSubject {
  /** API Gateway's `requestContext.identity.sourceIp`, never X-Forwarded-For. */
  ip: string;
  userId?: string;
  email?: string;
}

/** The counter scope of a route: the scope its limit shares, else its method and path. */
export const limitScope = (route: { method: string; path: string; rateLimit?: RateLimit }): string => route.rateLimit?.scope ?? `${route.method} ${route.path}`;

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
      return createHash('sha256').update(`${subject.email ?? ''}\n${subject.ip}`).digest('base64url');
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
}

/**
 * Take one slot of the window; 429 when it already holds `limit`. One conditional write, so
 * N parallel requests can never get more than `limit` through. Limits that count attempts
 * (login) take their slot before the expensive check, and may give a success's slot back.
 */
export async function consume(scope: string, limit: RateLimit, subject: LimitSubject, nowMs: number): Promise<Slot> {
  const { windowStart, endsAt } = windowOf(limit, nowMs);
  const counter = { scope, subject: subjectKey(limit, subject), windowStart };
  if (!(await incrementBelow(counter, limit.limit, Math.ceil(endsAt / 1000)))) throw refusal(endsAt, nowMs);
  return { counter };
}

/**
 * A successful attempt gives its slot back only when it is the only one in its window: no
 * earlier failure and no other attempt in flight. A user who signs in again and again keeps
 * a free window, while a burst that contains the right password still runs at most `limit`
 * checks (the success keeps its slot, because the burst's other attempts hold theirs).
 */
export async function giveBackIfAlone(slot: Slot): Promise<boolean> {
  return decrementIfOnly(slot.counter);
}
