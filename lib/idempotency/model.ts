import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * An Idempotency-Key's record (Stripe's design, IETF
 * draft-ietf-httpapi-idempotency-key-header): which request first used the key, and, once
 * that request's write committed, its answer. The answer commits in the same DynamoDB
 * transaction as the write it protects, so there is never a write without its record nor a
 * record claiming a write that did not happen.
 */

export const IDEMPOTENCY_STATUSES = ['IN_PROGRESS', 'COMPLETED'] as const;
export type IdempotencyStatus = (typeof IDEMPOTENCY_STATUSES)[number];

export const idempotencyRecordSchema = /* @__PURE__ */ schema(() =>
  z.object({
    /** SHA-256 of the method, the path and the canonical JSON body of the first request. */
    fingerprint: z.string(),
    status: z.enum(IDEMPOTENCY_STATUSES),
    /** A random id of the request that holds the key: only it may complete or release it. */
    owner: z.string(),
    /**
     * Until when an IN_PROGRESS record is its owner's (epoch seconds). Past it the owner's
     * function has died (no function runs that long): another request with the key takes it
     * over, and the dead one's write can no longer commit, since it is conditioned on `owner`.
     */
    leaseUntilEpoch: z.number().check(z.int()),
    /** The first answer, once COMPLETED: its status and its JSON body. */
    responseStatus: z.nullable(z.number().check(z.int())),
    responseBody: z.nullable(z.string()),
    createdAt: z.iso.datetime(),
    /** Kept 24 hours (the item's TTL). */
    expiresAtEpoch: z.number().check(z.int()),
  }),
);
export type IdempotencyRecord = z.infer<typeof idempotencyRecordSchema>;

/** Whose key it is: keys are scoped to the signed-in user, to the API key, or to the client IP on a public route. */
export type IdempotencyCaller = { tenantId: string; userId: string } | { tenantId: string; apiKeyId: string } | { ip: string };

/** The key a request holds while it runs. */
export interface IdempotencyClaim {
  caller: IdempotencyCaller;
  /** SHA-256 of the Idempotency-Key header's value. */
  keyHash: string;
  owner: string;
}

/**
 * What a handler passes down with a protected write: the claim, and the status the route
 * answers on success. The repository adds the key's completion to its transaction (with the
 * answer, `recorded`); a write path that writes nothing leaves the completion to the handler
 * chain, which records it on its own.
 */
export interface IdempotentWrite {
  readonly claim: IdempotencyClaim;
  readonly status: number;
  recorded: boolean;
}
