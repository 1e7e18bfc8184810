import { describe, expect, it } from 'vitest';
import { mapConcurrently, settleAll } from '../../lib/domain/concurrency';

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

  it('starts nothing after a failure, and lets the calls in flight finish before rejecting', async () => {
    const log: string[] = [];
    const run = mapConcurrently([0, 1, 2, 3, 4], 2, async (value) => {
      log.push(`start ${value}`);
      if (value === 0) throw new Error('zero');
      for (let tick = 0; tick < 5; tick += 1) await Promise.resolve();
      log.push(`end ${value}`);
      return value;
    });
    await expect(run).rejects.toThrow('zero');
    expect(log).toEqual(['start 0', 'start 1', 'end 1']);
  });
});

describe('settleAll', () => {
  it('gives every value in order when all succeed', async () => {
    expect(await settleAll([Promise.resolve(1), Promise.resolve('two')])).toEqual([1, 'two']);
  });

  it('rejects only once every promise has settled, with the first failure in the order given', async () => {
    let lateWriteDone = false;
    const late = (async () => {
      for (let tick = 0; tick < 10; tick += 1) await Promise.resolve();
      lateWriteDone = true;
    })();
    await expect(settleAll([Promise.resolve(0), late, Promise.reject(new Error('second')), Promise.reject(new Error('third'))])).rejects.toThrow('second');
    expect(lateWriteDone).toBe(true);
  });
});
