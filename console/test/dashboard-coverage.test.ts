import { describe, expect, it } from 'vitest';
import { DEFAULT_HORIZON, parseDays, parseHorizon, runsOutWithin } from '../src/pages/dashboard/coverage';

describe('coverage: what runs out within the horizon', () => {
  it('marks a coverage at or under the horizon', () => {
    expect(runsOutWithin({ estimatedCoverageDays: 3 }, 14)).toBe(true);
    expect(runsOutWithin({ estimatedCoverageDays: 14 }, 14)).toBe(true);
    expect(runsOutWithin({ estimatedCoverageDays: 14.01 }, 14)).toBe(false);
    expect(runsOutWithin({ estimatedCoverageDays: 343.18 }, DEFAULT_HORIZON)).toBe(false);
  });

  it('marks a product sold out (coverage 0), never one without sales (null)', () => {
    expect(runsOutWithin({ estimatedCoverageDays: 0 }, 0)).toBe(true);
    expect(runsOutWithin({ estimatedCoverageDays: null }, 14)).toBe(false);
    expect(runsOutWithin({ estimatedCoverageDays: null }, 10_000)).toBe(false);
  });
});

describe('coverage: the periods the API takes', () => {
  it('takes whole days from 1 to 365', () => {
    expect(parseDays('7')).toBe(7);
    expect(parseDays(' 365 ')).toBe(365);
    expect(parseDays('0')).toBeUndefined();
    expect(parseDays('366')).toBeUndefined();
    expect(parseDays('1.5')).toBeUndefined();
    expect(parseDays('')).toBeUndefined();
  });

  it('reads a horizon of whole days from 0', () => {
    expect(parseHorizon('14')).toBe(14);
    expect(parseHorizon('0')).toBe(0);
    expect(parseHorizon('-1')).toBeUndefined();
    expect(parseHorizon('abc')).toBeUndefined();
  });
});
