import { randomUUID } from 'node:crypto';
import { claimKey, completeKey, releaseKey } from './repository';
import { sha256Hex } from '../domain/hash';
import { IdempotencyKeyInUse, IdempotencyKeyReused } from '../errors';
import type { IdempotencyCaller, IdempotentWrite } from './model';

/** Keys are kept this long (DynamoDB TTL): a retry a day later is a new request. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/**
 * How long a request holds its key before another may take it over: longer than any
 * function runs (10 s; API Gateway gives up at 29 s), so only a dead request loses it.
 */
export const IDEMPOTENCY_LEASE_SECONDS = 60;

/** JSON with object keys in one order, so the same body written with its keys in another order is the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What identifies a request for its key: method, path and body. */
export const fingerprintOf = (request: { method: string; path: string; body: unknown }): string =>
  sha256Hex(`${request.method} ${request.path}\n${request.body === undefined ? '' : canonicalJson(request.body)}`);

export type IdempotencyStart = { kind: 'claimed'; write: IdempotentWrite } | { kind: 'replay'; status: number; body: string };

/**
 * Start a request that carries an Idempotency-Key: take the key, or answer from its record.
 * - The key's first request completed: its answer, again (`replay`).
 * - It was first used for another method, path or body: 422.
 * - Its first request is still running: 409 with Retry-After.
 */
export async function startIdempotent(
  caller: IdempotencyCaller,
  key: string,
  request: { method: string; path: string; body: unknown; successStatus: number },
  nowMs: number,
): Promise<IdempotencyStart> {
  const nowEpoch = Math.floor(nowMs / 1000);
  const fingerprint = fingerprintOf(request);
  const claim = { caller, keyHash: sha256Hex(key), owner: randomUUID() };
  // A record released between our refused claim and our read is gone: claim again (twice at most).
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const outcome = await claimOrGiveBack(
      claim,
      {
        fingerprint,
        status: 'IN_PROGRESS',
        owner: claim.owner,
        leaseUntilEpoch: nowEpoch + IDEMPOTENCY_LEASE_SECONDS,
        responseStatus: null,
        responseBody: null,
        createdAt: new Date(nowMs).toISOString(),
        expiresAtEpoch: nowEpoch + IDEMPOTENCY_TTL_SECONDS,
      },
      nowEpoch,
    );
    if (outcome.taken) return { kind: 'claimed', write: { claim, status: request.successStatus, recorded: false } };
    const existing = outcome.record;
    if (!existing) continue;
    if (existing.fingerprint !== fingerprint) throw new IdempotencyKeyReused();
    if (existing.status === 'COMPLETED') return { kind: 'replay', status: existing.responseStatus ?? request.successStatus, body: existing.responseBody ?? '' };
    throw new IdempotencyKeyInUse(1);
  }
  throw new IdempotencyKeyInUse(1);
}

/**
 * The claim, given back when it fails: its Put may have applied before the error reached us
 * (its answer lost, then the SDK's retries failing), and a claim nobody holds would turn the
 * client's retries away until its lease ends. The release removes only this request's own claim.
 */
async function claimOrGiveBack(...args: Parameters<typeof claimKey>): ReturnType<typeof claimKey> {
  try {
    return await claimKey(...args);
  } catch (error) {
    await releaseKey(args[0]).catch(() => undefined);
    throw error;
  }
}

/** After the handler answered: a write path that wrote nothing records the answer now. */
export async function finishIdempotent(write: IdempotentWrite, body: unknown): Promise<void> {
  if (!write.recorded) await completeKey(write, body);
}

/** After the request failed: nothing of its write committed, so the key is given back for a retry. */
export async function abandonIdempotent(write: IdempotentWrite): Promise<void> {
  await releaseKey(write.claim);
}
