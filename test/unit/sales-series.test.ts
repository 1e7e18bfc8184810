import { describe, expect, it } from 'vitest';
import { addDays, dayOf, daysBetween, isDay } from '../../lib/domain/days';
import { addUnits, decodeUnits, emptySeries, encodeUnits, SERIES_DAYS, SERIES_SCALE, seriesOf, unitsBetween } from '../../lib/inventory/sales-series';
import { balanceRule } from '../../lib/inventory/service';

describe('business days', () => {
  it('puts an instant on its São Paulo calendar day', () => {
    expect(dayOf(Date.parse('2026-11-21T02:59:59.000Z'), 'America/Sao_Paulo')).toBe('2026-11-20');
    expect(dayOf(Date.parse('2026-11-21T03:00:00.000Z'), 'America/Sao_Paulo')).toBe('2026-11-21');
  });

  it('adds and counts days across months and leap years', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(daysBetween('2026-01-01', '2026-12-31')).toBe(364);
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-13-40')).toBe(false);
    expect(isDay('2026-02-28')).toBe(true);
  });
});

describe('sales series', () => {
  it('sums the thousandths of a window of days', () => {
    let series = emptySeries();
    series = addUnits(series, '2026-11-10', 5);
    series = addUnits(series, '2026-11-20', 7);
    series = addUnits(series, '2026-11-20', 1);
    expect(series.through).toBe('2026-11-20');
    expect(unitsBetween(series, '2026-11-10', '2026-11-20')).toBe(13);
    expect(unitsBetween(series, '2026-11-11', '2026-11-20')).toBe(8);
    expect(unitsBetween(series, '2026-11-21', '2026-11-30')).toBe(0);
  });

  it('moves the window forward and drops days that fall out of it', () => {
    let series = addUnits(emptySeries(), '2025-01-01', 9);
    series = addUnits(series, addDays('2025-01-01', SERIES_DAYS), 1);
    expect(unitsBetween(series, '2024-01-01', '2027-01-01')).toBe(1);
  });

  it('adds a back-dated day inside the window without moving it, and ignores one before it', () => {
    let series = addUnits(emptySeries(), '2026-11-20', 1);
    series = addUnits(series, '2026-06-01', 2);
    series = addUnits(series, '2024-01-01', 100);
    expect(series.through).toBe('2026-11-20');
    expect(unitsBetween(series, '2020-01-01', '2026-11-20')).toBe(3);
  });

  it('encodes to a fixed size whatever the values', () => {
    const small = addUnits(emptySeries(), '2026-11-20', 1);
    const large = addUnits(small, '2026-11-19', 123_456_789_012);
    expect(encodeUnits(small.units)).toHaveLength(SERIES_DAYS * 8);
    expect(encodeUnits(large.units)).toHaveLength(SERIES_DAYS * 8);
    expect(Array.from(decodeUnits(encodeUnits(large.units)))).toEqual(Array.from(large.units));
  });

  it('sums thousandths exactly, where sums of float units would not be', () => {
    let series = emptySeries();
    for (let sale = 0; sale < 1000; sale += 1) series = addUnits(series, '2026-11-20', 100); // 1000 sales of 0.1
    series = addUnits(series, '2026-11-19', 200);
    expect(unitsBetween(series, '2026-11-19', '2026-11-20')).toBe(100_200);
    let floats = 0;
    for (let sale = 0; sale < 1000; sale += 1) floats += 0.1;
    expect(floats + 0.2).not.toBe(100.2);
  });

  it('reads a series stored in units, before it was exact, as thousandths; a scaled one as it is', () => {
    const values = new Float64Array(SERIES_DAYS);
    values[SERIES_DAYS - 1] = 0.1 + 0.2; // 0.30000000000000004, as float sums left it
    values[SERIES_DAYS - 2] = 2;
    const legacy = seriesOf({ through: '2026-11-20', units: encodeUnits(values) });
    expect([legacy.units[SERIES_DAYS - 1], legacy.units[SERIES_DAYS - 2]]).toEqual([300, 2000]);
    const scaled = seriesOf({ through: '2026-11-20', units: encodeUnits(legacy.units), scale: SERIES_SCALE });
    expect(Array.from(scaled.units)).toEqual(Array.from(legacy.units));
  });
});

describe('weighted average costing', () => {
  const start = { quantity: 0n, totalCost: 0n, averageCost: 0n, lastCost: 0n, version: 3 };
  it('averages INs and takes OUTs at the average, in exact scaled units (thousandths, 10^-7, 10^-4)', () => {
    const afterIn = balanceRule('IN', 10, 5)(start);
    const afterSecond = balanceRule('IN', 30, 7)(afterIn);
    expect(afterSecond).toEqual({ quantity: 40_000n, totalCost: 2_600_000_000n, averageCost: 65_000n, lastCost: 70_000n, version: 3 });
    expect(balanceRule('SALE', 40, undefined)(afterSecond)).toEqual({ quantity: 0n, totalCost: 0n, averageCost: 65_000n, lastCost: 70_000n, version: 3 });
  });

  it('is exact with decimals: IN 0.3 then OUT 0.1 and OUT 0.2 leaves nothing', () => {
    const afterIn = balanceRule('IN', 0.3, 1)(start);
    const afterOut = balanceRule('OUT', 0.1, undefined)(afterIn);
    expect(balanceRule('OUT', 0.2, undefined)(afterOut)).toEqual({ quantity: 0n, totalCost: 0n, averageCost: 10_000n, lastCost: 10_000n, version: 3 });
  });

  it('refuses to go below zero', () => {
    expect(() => balanceRule('OUT', 1, undefined)(start)).toThrow(/Not enough stock/);
  });
});
