import { describe, expect, it } from 'vitest';
import { suggestedQuantity, type SuggestionInput } from '../../lib/purchasing/model';

/** The suggestion's arithmetic, exact in thousandths of a unit. */

const units = (value: number) => BigInt(Math.round(value * 1000));
const base: SuggestionInput = {
  // 3 a day over 30 days.
  sold: units(90),
  days: 30,
  available: units(10),
  onOrder: 0n,
  leadTimeDays: 7,
  safetyDays: 3,
  targetDays: 30,
  reorderPoint: null,
  unitsPerPack: units(12),
  minimumOrder: null,
  whole: true,
};

describe('suggestedQuantity', () => {
  it('suggests 84 (7 boxes of 12) for 3 a day, 10 on hand, 7 days of lead, 3 of safety and 30 of target', () => {
    expect(suggestedQuantity(base)).toBe(units(84));
  });

  it('suggests nothing once an order of 84 is on order, nor after 36 of it arrived', () => {
    expect(suggestedQuantity({ ...base, onOrder: units(84) })).toBe(0n);
    expect(suggestedQuantity({ ...base, available: units(46), onOrder: units(48) })).toBe(0n);
  });

  it('suggests nothing while available and on order cover the lead time and safety days', () => {
    expect(suggestedQuantity({ ...base, available: units(30) })).toBe(0n);
    // 90 − 29.999 = 60.001 wanted: 6 boxes are 72.
    expect(suggestedQuantity({ ...base, available: units(29.999) })).toBe(units(72));
  });

  it('raises to the minimum order in whole packs, and to whole units for a product of whole units', () => {
    expect(suggestedQuantity({ ...base, minimumOrder: units(100) })).toBe(units(108));
    expect(suggestedQuantity({ ...base, unitsPerPack: units(1), sold: units(10), available: 0n })).toBe(units(10));
    // 10 a month, 0 on hand, target 30 days: 10 units; a product by the kilo takes 0.001 kg packs.
    expect(suggestedQuantity({ ...base, unitsPerPack: units(0.001), sold: units(10.5), available: 0n, whole: false })).toBe(units(10.5));
  });

  it('buys back to the reorder point for a product without sales, and nothing without one', () => {
    expect(suggestedQuantity({ ...base, sold: 0n, available: units(2), reorderPoint: units(10) })).toBe(units(12));
    expect(suggestedQuantity({ ...base, sold: 0n, available: units(2) })).toBe(0n);
    expect(suggestedQuantity({ ...base, sold: 0n, available: units(10), reorderPoint: units(10) })).toBe(0n);
  });
});
