/**
 * Bounded concurrency, pure: run `fn` over `items` with at most `width` calls in flight, in
 * the items' order of start, and give the results in the items' order. The roll-up job and
 * the bulk loaders use it so that independent writes overlap without flooding the table.
 */
export async function mapConcurrently<T, R>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, worker));
  return results;
}
