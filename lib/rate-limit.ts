import { createHash } from 'node:crypto';
import { incrementBelow, readCount } from './db/repositories/counters';
import { TooManyRequests } from './errors';
import type { RateLimit, Route } from './routes';

/**
 * The one rate limiter, driven by the `rateLimit` of each route in the manifest: fixed
 * windows counted in DynamoDB (one conditional write per limited request, exact under
 * concurrency), answering 429 with Retry-After until the window ends.
 */

export interface LimitSubject {
  /** API Gateway's `requestContext.identity.sourceIp`, never X-Forwarded-For. */
  ip: string;
  userId?: string;
  email?: string;
}

/** The counter scope of a route: its method and path. */
export const limitScope = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

function subjectKey(limit: RateLimit, subject: LimitSubject): string {
  switch (limit.per) {
    case 'ip':
      return subject.ip;
    case 'user':
      if (!subject.userId) throw new Error('a per-user limit needs an authenticated user');
      return subject.userId;
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

/** Count one request; 429 when the window already holds `limit` of them. */
export async function consume(scope: string, limit: RateLimit, subject: LimitSubject, nowMs: number): Promise<void> {
  const { windowStart, endsAt } = windowOf(limit, nowMs);
  const counted = await incrementBelow({ scope, subject: subjectKey(limit, subject), windowStart }, limit.limit, Math.ceil(endsAt / 1000));
  if (!counted) throw refusal(endsAt, nowMs);
}

/** For limits that count failures (login): 429 when the window is already full. */
export async function assertNotBlocked(scope: string, limit: RateLimit, subject: LimitSubject, nowMs: number): Promise<void> {
  const { windowStart, endsAt } = windowOf(limit, nowMs);
  if ((await readCount({ scope, subject: subjectKey(limit, subject), windowStart })) >= limit.limit) throw refusal(endsAt, nowMs);
}

/**
 * Record a failure. Returns false when the window was already full: a parallel attempt got
 * there first, and this one is answered 429 like any attempt past the limit.
 */
export async function recordFailure(scope: string, limit: RateLimit, subject: LimitSubject, nowMs: number): Promise<boolean> {
  const { windowStart, endsAt } = windowOf(limit, nowMs);
  return incrementBelow({ scope, subject: subjectKey(limit, subject), windowStart }, limit.limit, Math.ceil(endsAt / 1000));
}

/** The 429 for a window that is full. */
export function limitReached(limit: RateLimit, nowMs: number): TooManyRequests {
  return refusal(windowOf(limit, nowMs).endsAt, nowMs);
}
