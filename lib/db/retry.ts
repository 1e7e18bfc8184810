import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Run an optimistic read-compute-write step again while it reports `retry` (its condition
 * lost to a concurrent writer, or DynamoDB cancelled the transaction for a conflict), with
 * jittered backoff. Gives up after `attempts` with the last outcome's error.
 */
export async function withOptimisticRetries<T>(step: () => Promise<{ retry: true } | { retry: false; value: T }>, attempts = 40): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await step();
    if (!outcome.retry) return outcome.value;
    if (attempt >= attempts) throw Object.assign(new Error('Too much contention on one item; try again'), { name: 'TransactionConflictException' });
    await sleep(Math.random() * Math.min(100, 5 * attempt));
  }
}

/** The cancellation codes of a TransactionCanceledException (empty for other errors). */
export function cancellationCodes(error: unknown): string[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  return ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}
