/**
 * Bounded concurrency, pure: run `fn` over `items` with at most `width` calls in flight, in
 * the items' order of start, and give the results in the items' order. The roll-up job and
 * the bulk loaders use it so that independent writes overlap without flooding the table. On a
 * failure no new call starts, and the ones in flight settle before the first error is thrown.
 */
export async function mapConcurrently<T, R>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After a failure no new item starts, and the calls in flight finish before it is thrown.
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await settleAll(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  return results;
}

/**
 * Every promise settled, then the first failure (in the order given) thrown. Unlike
 * `Promise.all`, nothing is still writing when the caller learns of a failure: an error
 * answer never races a write of the same request that lands after it (found by
 * test/integration/faults.test.ts: a product created after its request had answered 503).
 */
export async function settleAll<T extends readonly unknown[]>(promises: readonly [...T]): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(promises);
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failure) throw failure.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
