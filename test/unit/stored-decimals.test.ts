import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { readNumber, scaledFrom, storedDecimal } from '../../lib/db/decimals';

describe('exact decimals in the table', () => {
  it('reads a number a float holds exactly as a number, and a longer one as its decimal text', () => {
    expect(readNumber('42')).toBe(42);
    expect(readNumber('0.3')).toBe(0.3);
    expect(readNumber('1763000000000')).toBe(1763000000000);
    expect(readNumber('123456789012345')).toBe(123456789012345);
    expect(readNumber('12345678887.6543212')).toEqual(NumberValue.from('12345678887.6543212'));
  });

  it('writes a scaled integer as a number when exact, else as decimal text', () => {
    expect(storedDecimal(300n, 3)).toBe(0.3);
    expect(storedDecimal(-1500n, 3)).toBe(-1.5);
    expect(storedDecimal(123_456_788_876_543_212n, 7)).toEqual(NumberValue.from('12345678887.6543212'));
  });

  it('reads back what it wrote, exactly', () => {
    for (const units of [0n, 1n, -7n, 123_456_788_876_543_212n, 10n ** 30n + 1n]) {
      const stored = storedDecimal(units, 7);
      expect(scaledFrom(stored instanceof NumberValue ? readNumber(stored.value) : stored, 7)).toBe(units);
    }
  });

  it('reads an absent value as 0 and a value stored as a float before decimals were kept exact rounded to its places, half to even', () => {
    expect(scaledFrom(undefined, 3)).toBe(0n);
    expect(scaledFrom(0.30000000000000004, 3)).toBe(300n);
    expect(scaledFrom(0.19999999999999998, 3)).toBe(200n);
    expect(scaledFrom('0.0005', 3)).toBe(0n);
    expect(scaledFrom('0.0015', 3)).toBe(2n);
  });

  it('refuses a stored value that is not a decimal', () => {
    expect(() => scaledFrom('abc', 3)).toThrow(/not a stored decimal/);
    expect(() => scaledFrom({ not: 'a number' }, 3)).toThrow(/not a stored decimal/);
  });
});
