import { describe, expect, it } from 'vitest';
import { mapConcurrently } from '../../lib/domain/concurrency';

describe('mapConcurrently', () => {
  it('keeps at most `width` calls in flight and gives the results in the items order', async () => {
    let inFlight = 0;
    let peak = 0;
    const results = await mapConcurrently([5, 1, 4, 2, 3, 0, 6], 3, async (value, index) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      // Later items finish first, so order comes from the indexes, not from completion.
      await new Promise((resolve) => setImmediate(resolve));
      for (let tick = 0; tick < value; tick += 1) await Promise.resolve();
      inFlight -= 1;
      return `${index}:${value}`;
    });
    expect(results).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3', '5:0', '6:6']);
    expect(peak).toBe(3);
  });

  it('rejects with the first failure', async () => {
    await expect(mapConcurrently([1, 2, 3], 2, async (value) => (value === 2 ? Promise.reject(new Error('two')) : value))).rejects.toThrow('two');
  });

  it('returns an empty list for no items', async () => {
    expect(await mapConcurrently([], 4, async () => 1)).toEqual([]);
  });
});
