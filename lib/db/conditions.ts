import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** True when a single conditional write failed its condition. */
export function isConditionFailure(error: unknown): boolean {
  return error instanceof ConditionalCheckFailedException || (error instanceof Error && error.name === 'ConditionalCheckFailedException');
}

/** Await a conditional write: false when its condition failed; any other error is thrown. */
export async function conditionally(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * For a cancelled transaction whose cancellation was caused only by conditions, the indexes
 * of the items whose condition failed; undefined for any other error (throttling, conflicts
 * with other transactions, ...) which must propagate and become a 503.
 */
export function failedConditions(error: unknown): number[] | undefined {
  const cancelled = error instanceof TransactionCanceledException || (error instanceof Error && error.name === 'TransactionCanceledException');
  if (!cancelled) return undefined;
  const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
  const failed: number[] = [];
  for (const [index, reason] of reasons.entries()) {
    if (reason.Code === 'ConditionalCheckFailed') failed.push(index);
    else if (reason.Code && reason.Code !== 'None') return undefined;
  }
  return failed.length > 0 ? failed : undefined;
}
