import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  divideRounded,
  formatScaled,
  MONEY_PLACES,
  parseScaled,
  QUANTITY_PLACES,
  rescale,
  scaledToNumber,
  UNIT_COST_PLACES,
  VALUE_PLACES,
} from '../../lib/domain/decimal';

describe('decimal places', () => {
  it('keeps a quantity times a unit cost exact', () => {
    expect([QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES, MONEY_PLACES]).toEqual([3, 4, 7, 2]);
  });
});

describe('parseScaled', () => {
  it('reads plain decimals as DynamoDB returns them', () => {
    expect(parseScaled('-12.3400', 2)).toBe(-1234n);
    expect(parseScaled('0.3', 3)).toBe(300n);
    expect(parseScaled('100', 0)).toBe(100n);
    expect(parseScaled('100', 4)).toBe(1_000_000n);
    expect(parseScaled('+7.5', 1)).toBe(75n);
    expect(parseScaled('0007.50', 2)).toBe(750n);
    expect(parseScaled('.5', 1)).toBe(5n);
    expect(parseScaled('5.', 0)).toBe(5n);
    expect(parseScaled('-0', 3)).toBe(0n);
    expect(parseScaled('0.000', 0)).toBe(0n);
  });

  it('reads exponent forms, from strings and from the shortest string of a number', () => {
    expect(parseScaled(1e-7, 7)).toBe(1n);
    expect(parseScaled(1.5e21, 0)).toBe(1_500_000_000_000_000_000_000n);
    expect(parseScaled(-2.5e-5, 7)).toBe(-250n);
    expect(parseScaled('1E3', 0)).toBe(1000n);
    expect(parseScaled('1.25e+2', 1)).toBe(1250n);
    expect(parseScaled('12500e-4', 2)).toBe(125n);
    expect(parseScaled('0e999999999', 2)).toBe(0n);
  });

  it('reads numbers by their digits, not their binary value', () => {
    expect(parseScaled(0.1, 3)).toBe(100n);
    expect(parseScaled(0.3, 1)).toBe(3n);
    expect(parseScaled(-0, 2)).toBe(0n);
    expect(parseScaled(123456789.123, 3)).toBe(123_456_789_123n);
    // 0.1 + 0.2 is 0.30000000000000004: refused rather than rounded.
    expect(parseScaled(0.1 + 0.2, 2)).toBeUndefined();
  });

  it('refuses a non-zero digit past the places, and accepts trailing zeros', () => {
    expect(parseScaled('1.2345', 3)).toBeUndefined();
    expect(parseScaled('1.2340', 3)).toBe(1234n);
    expect(parseScaled(1e-7, 6)).toBeUndefined();
    expect(parseScaled('1.5', 0)).toBeUndefined();
    expect(parseScaled('1e-999999999', 2)).toBeUndefined();
  });

  it('refuses what is not a finite decimal', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) expect(parseScaled(value, 2)).toBeUndefined();
    for (const value of ['', ' 1', '1 ', '.', '-', '+', 'e5', '1e', '1.2.3', '--1', '0x10', '1_000', 'NaN', 'Infinity', '1,5', 'abc']) {
      expect(parseScaled(value, 2)).toBeUndefined();
    }
    // Too many digits to build: not a value anyone stores.
    expect(parseScaled('1e999999999', 0)).toBeUndefined();
  });

  it('rejects invalid places', () => {
    expect(() => parseScaled('1', -1)).toThrow(RangeError);
    expect(() => parseScaled('1', 1.5)).toThrow(RangeError);
  });
});

describe('formatScaled', () => {
  it('writes the canonical decimal', () => {
    expect(formatScaled(1234n, 2)).toBe('12.34');
    expect(formatScaled(1230n, 2)).toBe('12.3');
    expect(formatScaled(1200n, 2)).toBe('12');
    expect(formatScaled(-5n, 3)).toBe('-0.005');
    expect(formatScaled(-1500n, 3)).toBe('-1.5');
    expect(formatScaled(0n, 7)).toBe('0');
    expect(formatScaled(-0n, 2)).toBe('0');
    expect(formatScaled(42n, 0)).toBe('42');
    expect(formatScaled(-42n, 0)).toBe('-42');
  });

  it('gives the JSON number a client sees', () => {
    expect(scaledToNumber(300n, 3)).toBe(0.3);
    expect(scaledToNumber(-1234n, 2)).toBe(-12.34);
    expect(scaledToNumber(0n, 4)).toBe(0);
    expect(Object.is(scaledToNumber(-0n, 4), 0)).toBe(true);
  });
});

describe('divideRounded and rescale', () => {
  it('rounds ties to even, symmetrically for negatives', () => {
    const halves = [-7n, -5n, -3n, -1n, 1n, 3n, 5n, 7n].map((numerator) => divideRounded(numerator, 2n));
    // -3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5
    expect(halves).toEqual([-4n, -2n, -2n, 0n, 0n, 2n, 2n, 4n]);
  });

  it('rounds non-ties to the nearest', () => {
    expect([divideRounded(10n, 3n), divideRounded(20n, 3n), divideRounded(-10n, 3n), divideRounded(-20n, 3n)]).toEqual([3n, 7n, -3n, -7n]);
    expect([divideRounded(0n, 5n), divideRounded(6n, 3n), divideRounded(-6n, 3n)]).toEqual([0n, 2n, -2n]);
  });

  it('refuses a denominator that is not positive', () => {
    expect(() => divideRounded(1n, 0n)).toThrow(RangeError);
    expect(() => divideRounded(1n, -2n)).toThrow(RangeError);
  });

  it('adds places exactly and removes them half to even', () => {
    expect(rescale(1234n, 2, 5)).toBe(1_234_000n);
    expect(rescale(1234n, 2, 2)).toBe(1234n);
    expect(rescale(5n, 1, 0)).toBe(0n);
    expect(rescale(15n, 1, 0)).toBe(2n);
    expect(rescale(25n, 1, 0)).toBe(2n);
    expect(rescale(-25n, 1, 0)).toBe(-2n);
    expect(rescale(1_234_565_000n, 7, 2)).toBe(12_346n);
    expect(rescale(1_234_550_000n, 7, 2)).toBe(12_346n);
    expect(rescale(1_234_450_000n, 7, 2)).toBe(12_344n);
  });
});

describe('decimal properties', () => {
  const places = fc.integer({ min: 0, max: 9 });
  const units = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });

  it('parses back what it formats', () => {
    fc.assert(
      fc.property(units, places, (value, p) => {
        expect(parseScaled(formatScaled(value, p), p)).toBe(value);
      }),
      { numRuns: 1000 },
    );
  });

  it('reads k / 10^p written as a decimal, with any padding, as k', () => {
    const zeros = fc.integer({ min: 0, max: 4 }).map((count) => '0'.repeat(count));
    fc.assert(
      fc.property(units, places, zeros, zeros, fc.integer({ min: 0, max: 3 }), (k, p, leading, trailing, extra) => {
        const digits = (k < 0n ? -k : k).toString().padStart(p + 1, '0');
        const whole = digits.slice(0, digits.length - p);
        const fraction = digits.slice(digits.length - p) + trailing;
        const text = `${k < 0n ? '-' : ''}${leading}${whole}${fraction ? `.${fraction}` : ''}`;
        expect(parseScaled(text, p)).toBe(k);
        expect(parseScaled(text, p + extra)).toBe(k * 10n ** BigInt(extra));
        // The same value in exponent form: the digits with the point moved into the exponent.
        expect(parseScaled(`${k < 0n ? '-' : ''}${digits}e-${p}`, p)).toBe(k);
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps every 3-decimal quantity up to a billion through a JSON number', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), (k) => {
        const json = JSON.parse(JSON.stringify({ quantity: scaledToNumber(k, 3) })) as { quantity: number };
        expect(parseScaled(Number(formatScaled(k, 3)), 3)).toBe(k);
        expect(parseScaled(json.quantity, 3)).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });

  it('divides like exact rationals rounded half to even', () => {
    // Independent reference: floor division, then compare twice the remainder with the denominator.
    const reference = (numerator: bigint, denominator: bigint): bigint => {
      let floor = numerator / denominator;
      if (numerator % denominator !== 0n && numerator < 0n) floor -= 1n;
      const twice = 2n * (numerator - floor * denominator); // 2 × the fraction part, in [0, 2d)
      if (twice > denominator) return floor + 1n;
      if (twice < denominator) return floor;
      return floor % 2n === 0n ? floor : floor + 1n;
    };
    const numerator = fc.oneof(fc.bigInt({ min: -1000n, max: 1000n }), fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }));
    const denominator = fc.oneof(fc.bigInt({ min: 1n, max: 20n }), fc.bigInt({ min: 1n, max: 10n ** 20n }));
    fc.assert(
      fc.property(numerator, denominator, (n, d) => {
        const quotient = divideRounded(n, d);
        expect(quotient).toBe(reference(n, d));
        // Nearest: |n - q·d| ≤ d/2.
        const error = n - quotient * d;
        expect(2n * (error < 0n ? -error : error) <= d).toBe(true);
        expect(divideRounded(-n, d)).toBe(-quotient);
      }),
      { numRuns: 2000 },
    );
  });

  it('rescales up exactly and back down to the same value', () => {
    fc.assert(
      fc.property(units, places, fc.integer({ min: 0, max: 6 }), (value, p, more) => {
        expect(rescale(rescale(value, p, p + more), p + more, p)).toBe(value);
        expect(rescale(value, p + more, p)).toBe(divideRounded(value, 10n ** BigInt(more)));
      }),
      { numRuns: 500 },
    );
  });
});
