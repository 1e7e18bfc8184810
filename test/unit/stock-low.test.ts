import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../lib/domain/events';
import { DERIVED_EVENTS, EVENT_OF_ACTION } from '../../lib/events/catalogue';
import { crossedBelow, STOCK_LOW_WINDOW_DAYS, type CoverageReading } from '../../lib/inventory/model';
import { stockLowEvent } from '../../lib/inventory/stock-low';

/**
 * The crossing rule of `product.stock_low` (lib/inventory/model `crossedBelow`, made into an
 * event by lib/inventory/stock-low): coverage over the 30-day window, in hundredths of a day
 * as the dashboard shows it, exactly (bigint, no float), from at or above the threshold to below.
 */

/** Units (thousandths) from a decimal text, exactly. */
const units = (text: string): bigint => {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 1000n + BigInt(fraction.padEnd(3, '0'));
};
/** A threshold in hundredths of a day from days text. */
const days = (text: string): bigint => {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
};
/** A reading: 30 units sold in the window (1 a day) unless told. */
const reading = (before: string, after: string, over: Partial<CoverageReading> = {}): CoverageReading => ({
  threshold: days('10'),
  sold: units('30'),
  onHandBefore: units(before),
  onHandAfter: units(after),
  ...over,
});

describe('crossedBelow', () => {
  it('takes the dashboard window of 30 days', () => {
    expect(STOCK_LOW_WINDOW_DAYS).toBe(30);
  });

  it('crosses only from at or above the threshold to below it', () => {
    // At 1 unit a day, on hand in units is coverage in days.
    expect(crossedBelow(reading('12', '11'))).toBeNull(); // above → above
    expect(crossedBelow(reading('11', '10'))).toBeNull(); // above → exactly at: not below
    expect(crossedBelow(reading('11', '9.5'))).toBe(950n); // above → below
    expect(crossedBelow(reading('10', '9.5'))).toBe(950n); // exactly at → below
    expect(crossedBelow(reading('9.5', '9'))).toBeNull(); // already below: no repeat
    expect(crossedBelow(reading('9', '12'))).toBeNull(); // back above (an IN): nothing
    expect(crossedBelow(reading('12', '0'))).toBe(0n); // sold out: coverage 0
  });

  it('compares the coverage as the dashboard shows it: hundredths of a day, half to even', () => {
    // 9.999 on hand is 9.999 days, shown as 10.00: not below 10.
    expect(crossedBelow(reading('10.5', '9.999'))).toBeNull();
    // 9.995 days is exactly half a hundredth: to the even 10.00, not below.
    expect(crossedBelow(reading('10.5', '9.995'))).toBeNull();
    // 9.994 days is 9.99: below.
    expect(crossedBelow(reading('10.5', '9.994'))).toBe(999n);
    // A threshold with decimals compares exactly: 7.25 days.
    expect(crossedBelow(reading('7.25', '7.249', { threshold: days('7.25') }))).toBeNull(); // shown as 7.25: not below
    expect(crossedBelow({ ...reading('7.25', '7.244'), threshold: days('7.25') })).toBe(724n);
  });

  it('uses exact decimals where a binary float would not (1/3 of a day, 0.1 + 0.2, huge quantities)', () => {
    // 90 units in 30 days is 3 a day; 10 on hand is 3.333... days: 3.33.
    expect(crossedBelow(reading('20', '10', { sold: units('90'), threshold: days('5') }))).toBe(333n);
    // 0.3 left after 0.1 and 0.2 went: exactly 0.3 days at 1 a day (a float would say 0.30000000000000004).
    expect(crossedBelow(reading('0.6', '0.3', { threshold: days('0.5') }))).toBe(30n);
    // A quantity past 2^53 thousandths keeps every digit.
    const huge = 10n ** 20n;
    expect(crossedBelow({ threshold: days('10'), sold: huge * 3n, onHandBefore: huge, onHandAfter: huge / 10n })).toBe(100n);
  });

  it('never crosses without sales in the window, without a coverage state, or with the threshold off', () => {
    expect(crossedBelow(reading('12', '0', { sold: 0n }))).toBeNull();
    expect(crossedBelow(reading('12', '0', { sold: undefined }))).toBeNull();
    expect(crossedBelow(reading('12', '0', { threshold: null }))).toBeNull();
  });
});

describe('stockLowEvent', () => {
  const product = { tenantId: randomUUID(), id: randomUUID(), sku: 'CAFE-500' };
  const warehouseId = randomUUID();
  const timestamp = '2026-11-26T13:05:09.412Z';

  it('is a thin event: the product, its SKU, the tenant, the warehouse, the coverage left and the threshold, as exact decimal strings', () => {
    // 30 then 10 on hand at 3 a day: 10 days, then 3.33.
    expect(stockLowEvent(product, warehouseId, reading('30', '10', { sold: units('90'), threshold: days('7.5') }), timestamp)).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/) as unknown,
      type: 'product.stock_low',
      timestamp,
      data: { id: product.id, tenantId: product.tenantId, sku: 'CAFE-500', warehouseId, coverageDays: '3.33', thresholdDays: '7.5' },
    });
    expect(stockLowEvent(product, warehouseId, reading('12', '0'), timestamp)?.data).toMatchObject({ coverageDays: '0', thresholdDays: '10' });
  });

  it('is none when the movement did not cross', () => {
    expect(stockLowEvent(product, warehouseId, reading('9', '8'), timestamp)).toBeUndefined();
    expect(stockLowEvent(product, warehouseId, reading('12', '8', { threshold: null }), timestamp)).toBeUndefined();
    expect(stockLowEvent(product, warehouseId, reading('12', '8', { sold: 0n }), timestamp)).toBeUndefined();
  });
});

describe('the catalogue', () => {
  it('names where every event type is made: an audited action publishes it, or it is derived, never both', () => {
    const published = new Set(Object.values(EVENT_OF_ACTION));
    for (const type of EVENT_TYPES) {
      const derived = Object.hasOwn(DERIVED_EVENTS, type);
      expect(published.has(type) !== derived, type).toBe(true);
    }
    expect(Object.keys(DERIVED_EVENTS)).toEqual(['product.stock_low']);
  });
});
