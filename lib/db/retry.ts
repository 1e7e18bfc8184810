import { setTimeout as sleep } from 'node:timers/promises';

/** How long an optimistic write may keep trying before the caller gets a 503. */
const RETRY_BUDGET_MS = 8_000;

/**
 * Run an optimistic read-compute-write step again while it reports `retry` (its condition
 * lost to a concurrent writer, or DynamoDB cancelled the transaction for a conflict), with
 * exponential backoff and full jitter, within `attempts` and a time budget. Past either,
 * it gives up with a TransactionConflictException, which callers answer with 503.
 */
export async function withOptimisticRetries<T>(step: () => Promise<{ retry: true } | { retry: false; value: T }>, attempts = 60): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await step();
    if (!outcome.retry) return outcome.value;
    if (attempt >= attempts || Date.now() - started > RETRY_BUDGET_MS) {
      throw Object.assign(new Error('Too much contention on one item; try again'), { name: 'TransactionConflictException' });
    }
    await sleep(Math.random() * Math.min(250, 5 * 2 ** Math.min(attempt, 6)));
  }
}

/** The cancellation codes of a TransactionCanceledException (empty for other errors). */
export function cancellationCodes(error: unknown): string[] {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return [];
  return ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
}
