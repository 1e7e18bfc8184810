import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseScaled } from '../../lib/domain/decimal';
import { Conflict } from '../../lib/errors';
import { applyMovement, EMPTY_BALANCE, type ExactBalance, type ExactMovement, type MovementType } from '../../lib/inventory/costing';

/** A movement written as the API receives it: decimal strings. */
function movement(type: MovementType, quantity: string, unitCost?: string): ExactMovement {
  const exactQuantity = parseScaled(quantity, 3);
  const exactCost = unitCost === undefined ? undefined : parseScaled(unitCost, 4);
  if (exactQuantity === undefined || (unitCost !== undefined && exactCost === undefined)) throw new Error(`bad test input ${quantity} ${unitCost}`);
  return exactCost === undefined ? { type, quantity: exactQuantity } : { type, quantity: exactQuantity, unitCost: exactCost };
}

/** What `action` throws (undefined when it returns). */
function thrown(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** `action` throws a Conflict (a 409) with exactly `message`. */
function expectConflict(action: () => unknown, message: string): void {
  const error = thrown(action);
  expect(error).toBeInstanceOf(Conflict);
  expect((error as Conflict).message).toBe(message);
}

const run = (...movements: ExactMovement[]): ExactBalance => movements.reduce(applyMovement, EMPTY_BALANCE);

describe('weighted average costing, exact', () => {
  it('takes OUT 0.1 and OUT 0.2 from IN 0.3 and leaves exactly nothing', () => {
    const afterIn = run(movement('IN', '0.3', '7.1234'));
    // 0.3 × 7.1234 = 2.13702: 21 370 200 ten-millionths.
    expect(afterIn).toEqual({ quantity: 300n, value: 21_370_200n, averageCost: 71_234n });
    const afterFirst = applyMovement(afterIn, movement('OUT', '0.1'));
    expect(afterFirst).toEqual({ quantity: 200n, value: 14_246_800n, averageCost: 71_234n });
    expect(applyMovement(afterFirst, movement('OUT', '0.2'))).toEqual({ quantity: 0n, value: 0n, averageCost: 71_234n });
  });

  it('takes OUT 0.3 after IN 0.1 and IN 0.2 and leaves exactly nothing, keeping the average', () => {
    const stocked = run(movement('IN', '0.1', '1'), movement('IN', '0.2', '2'));
    // 0.1 × 1 + 0.2 × 2 = 0.5 for 0.3 units: 1.66666… per unit, rounded to 1.6667.
    expect(stocked).toEqual({ quantity: 300n, value: 5_000_000n, averageCost: 16_667n });
    expect(applyMovement(stocked, movement('SALE', '0.3'))).toEqual({ quantity: 0n, value: 0n, averageCost: 16_667n });
  });

  it('refuses to take more than is on hand, saying how much there is', () => {
    const stocked = run(movement('IN', '1.5', '2'));
    expectConflict(() => applyMovement(stocked, movement('OUT', '1.501')), 'Not enough stock: 1.5 on hand, 1.501 requested');
    expectConflict(() => applyMovement(stocked, movement('SALE', '1.501')), 'Not enough stock: 1.5 on hand, 1.501 requested');
    expectConflict(() => applyMovement(EMPTY_BALANCE, movement('OUT', '0.001')), 'Not enough stock: 0 on hand, 0.001 requested');
    expectConflict(
      () => applyMovement(run(movement('IN', '1000000', '1')), movement('OUT', '1000000.001')),
      'Not enough stock: 1000000 on hand, 1000000.001 requested',
    );
    expect(applyMovement(stocked, movement('OUT', '1.5'))).toEqual({ quantity: 0n, value: 0n, averageCost: 20_000n });
  });

  it('values an ADJUSTMENT up from zero at the average kept from before, or at its own unit cost', () => {
    const emptied = run(movement('IN', '2', '3.5'), movement('SALE', '2'));
    expect(emptied).toEqual({ quantity: 0n, value: 0n, averageCost: 35_000n });
    expect(applyMovement(emptied, movement('ADJUSTMENT', '1.5'))).toEqual({ quantity: 1500n, value: 52_500_000n, averageCost: 35_000n });
    expect(applyMovement(emptied, movement('ADJUSTMENT', '1.5', '4'))).toEqual({ quantity: 1500n, value: 60_000_000n, averageCost: 40_000n });
    expect(applyMovement(EMPTY_BALANCE, movement('ADJUSTMENT', '1'))).toEqual({ quantity: 1000n, value: 0n, averageCost: 0n });
  });

  it('values an ADJUSTMENT up with stock at the current value per unit, and one down as an OUT', () => {
    // 3 units worth 10: the value per unit is 3.3333333…
    const stocked = run(movement('IN', '1', '4'), movement('IN', '2', '3'));
    expect(stocked).toEqual({ quantity: 3000n, value: 100_000_000n, averageCost: 33_333n });
    // Up by 1: 10 × 1 / 3 = 3.33333333… → 3.3333333.
    expect(applyMovement(stocked, movement('ADJUSTMENT', '4'))).toEqual({ quantity: 4000n, value: 133_333_333n, averageCost: 33_333n });
    // Down by 2: leaves like an OUT of 2, 10 × 2 / 3 = 6.66666666… → 6.6666667.
    const down = applyMovement(stocked, movement('ADJUSTMENT', '1'));
    expect(down).toEqual(applyMovement(stocked, movement('OUT', '2')));
    expect(down).toEqual({ quantity: 1000n, value: 33_333_333n, averageCost: 33_333n });
    expect(applyMovement(stocked, movement('ADJUSTMENT', '0'))).toEqual({ quantity: 0n, value: 0n, averageCost: 33_333n });
    expect(applyMovement(stocked, movement('ADJUSTMENT', '3', '99'))).toEqual(stocked);
  });

  it('rounds the average and the value leaving half to even', () => {
    // 4 units worth 40.0006: 10.00015 per unit, a tie, to the even 10.0002.
    expect(run(movement('IN', '2', '10.0001'), movement('IN', '2', '10.0002'))).toEqual({ quantity: 4000n, value: 400_006_000n, averageCost: 100_002n });
    // 4 units worth 40.0002: 10.00005 per unit, a tie, to the even 10.0000.
    expect(run(movement('IN', '2', '10'), movement('IN', '2', '10.0001'))).toEqual({ quantity: 4000n, value: 400_002_000n, averageCost: 100_000n });
    // 0.003 units worth 0.0000002 (2 ten-millionths).
    const tiny = run(movement('IN', '0.002', '0.0001'), movement('IN', '0.001', '0'));
    expect(tiny).toEqual({ quantity: 3n, value: 2n, averageCost: 1n });
    // 2 / 3 → 1 leaves; the rest, 1 for 2 thousandths, averages 0.5 → 0.
    const first = applyMovement(tiny, movement('OUT', '0.001'));
    expect(first).toEqual({ quantity: 2n, value: 1n, averageCost: 0n });
    // 1 × 1 / 2 = 0.5 → 0 leaves; the last thousandth takes the whole rest.
    const second = applyMovement(first, movement('OUT', '0.001'));
    expect(second).toEqual({ quantity: 1n, value: 1n, averageCost: 1n });
    expect(applyMovement(second, movement('OUT', '0.001'))).toEqual({ quantity: 0n, value: 0n, averageCost: 1n });
  });

  it('refuses movements the schema never lets through, without touching the balance', () => {
    const stocked = run(movement('IN', '1', '1'));
    const before = { ...stocked };
    const missingCost = thrown(() => applyMovement(stocked, { type: 'IN', quantity: 1000n }));
    expect(missingCost).toEqual(new Error('IN requires a unitCost'));
    expect(missingCost).not.toBeInstanceOf(Conflict);
    expect(() => applyMovement(stocked, { type: 'IN', quantity: 0n, unitCost: 1n })).toThrow(Error);
    expect(() => applyMovement(stocked, { type: 'OUT', quantity: -1n })).toThrow(Error);
    expect(() => applyMovement(stocked, { type: 'ADJUSTMENT', quantity: -1n })).toThrow(Error);
    expect(() => applyMovement(stocked, { type: 'IN', quantity: 1n, unitCost: -1n })).toThrow(Error);
    expect(stocked).toEqual(before);
    expect(EMPTY_BALANCE).toEqual({ quantity: 0n, value: 0n, averageCost: 0n });
  });
});

// ---------------------------------------------------------------------------------------
// An independent reference: the written rule over exact rationals (currency units, no
// scaled integers), with its own half-even rounding by floor and remainder.

interface Rational {
  n: bigint;
  d: bigint;
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? abs(a) : gcd(b, a % b));
function rational(n: bigint, d = 1n): Rational {
  const sign = d < 0n ? -1n : 1n;
  const divisor = gcd(n, d) || 1n;
  return { n: (sign * n) / divisor, d: (sign * d) / divisor };
}
const add = (a: Rational, b: Rational): Rational => rational(a.n * b.d + b.n * a.d, a.d * b.d);
const sub = (a: Rational, b: Rational): Rational => rational(a.n * b.d - b.n * a.d, a.d * b.d);
const mul = (a: Rational, b: Rational): Rational => rational(a.n * b.n, a.d * b.d);
const div = (a: Rational, b: Rational): Rational => rational(a.n * b.d, a.d * b.n);
const compare = (a: Rational, b: Rational): number => {
  const difference = a.n * b.d - b.n * a.d;
  return difference < 0n ? -1 : difference > 0n ? 1 : 0;
};
const ZERO = rational(0n);

/** `value` rounded to a multiple of 10^-places, ties to the even multiple. */
function roundHalfEven(value: Rational, places: number): Rational {
  const scale = 10n ** BigInt(places);
  const n = value.n * scale;
  let floor = n / value.d;
  if (n % value.d !== 0n && n < 0n) floor -= 1n;
  const twice = 2n * (n - floor * value.d);
  const rounded = twice > value.d || (twice === value.d && floor % 2n !== 0n) ? floor + 1n : floor;
  return rational(rounded, scale);
}

/** `value` × 10^places, which must be a whole number. */
function scaled(value: Rational, places: number): bigint {
  const n = value.n * 10n ** BigInt(places);
  if (n % value.d !== 0n) throw new Error(`${value.n}/${value.d} is not a multiple of 10^-${places}`);
  return n / value.d;
}

interface ReferenceBalance {
  quantity: Rational;
  value: Rational;
  averageCost: Rational;
}

const REFERENCE_EMPTY: ReferenceBalance = { quantity: ZERO, value: ZERO, averageCost: ZERO };

/** The rule in the costing module's doc comment, over rationals; undefined when stock is short. */
function referenceMovement(balance: ReferenceBalance, type: MovementType, q: Rational, unitCost: Rational | undefined): ReferenceBalance | undefined {
  const settle = (quantity: Rational, value: Rational): ReferenceBalance => ({
    quantity,
    value,
    averageCost: compare(quantity, ZERO) > 0 ? roundHalfEven(div(value, quantity), 4) : balance.averageCost,
  });
  const takeOut = (taken: Rational): ReferenceBalance | undefined => {
    if (compare(taken, balance.quantity) > 0) return undefined;
    const leaving = compare(taken, balance.quantity) === 0 ? balance.value : roundHalfEven(div(mul(balance.value, taken), balance.quantity), 7);
    return settle(sub(balance.quantity, taken), sub(balance.value, leaving));
  };
  switch (type) {
    case 'IN':
      return settle(add(balance.quantity, q), add(balance.value, mul(q, unitCost ?? ZERO)));
    case 'OUT':
    case 'SALE':
      return takeOut(q);
    case 'ADJUSTMENT': {
      const difference = sub(q, balance.quantity);
      if (compare(difference, ZERO) < 0) return takeOut(sub(ZERO, difference));
      if (compare(difference, ZERO) === 0) return balance;
      const added = unitCost
        ? mul(difference, unitCost)
        : compare(balance.quantity, ZERO) > 0
          ? roundHalfEven(div(mul(balance.value, difference), balance.quantity), 7)
          : mul(difference, balance.averageCost);
      return settle(q, add(balance.value, added));
    }
  }
}

/** Thousandths (or ten-thousandths) written as a decimal string, by hand. */
const decimalString = (units: number, places: number): string => {
  const digits = String(units).padStart(places + 1, '0');
  return `${digits.slice(0, -places)}.${digits.slice(-places)}`;
};

/** `"1.500"` → `"1.5"`, `"2.000"` → `"2"`, `"0.000"` → `"0"`. */
const withoutTrailingZeros = (text: string): string => text.replace(/\.?0+$/, '');

interface GeneratedMovement {
  warehouse: number;
  product: number;
  type: MovementType;
  /** Thousandths; for OUT and SALE, `whole` takes everything on hand instead. */
  quantity: number;
  whole: boolean;
  /** Ten-thousandths; always used by IN, used by ADJUSTMENT when `costed`. */
  unitCost: number;
  costed: boolean;
}

const WAREHOUSES = 3;
const PRODUCTS = 2;

const generatedMovement: fc.Arbitrary<GeneratedMovement> = fc.record({
  warehouse: fc.integer({ min: 0, max: WAREHOUSES - 1 }),
  product: fc.integer({ min: 0, max: PRODUCTS - 1 }),
  type: fc.constantFrom<MovementType>('IN', 'IN', 'OUT', 'SALE', 'ADJUSTMENT'),
  // 0.001 to 1000, often small, so OUTs and ADJUSTMENTs meet stock of their own size.
  quantity: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 1, max: 10 })),
  whole: fc.boolean(),
  // 0 to 1000, with odd ten-thousandths.
  unitCost: fc.oneof(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 100 })),
  costed: fc.boolean(),
});

/** Which branch of the rule a movement took, to check the runs reach them all. */
function pathOf(type: MovementType, before: ExactBalance, after: ExactBalance, costed: boolean): string {
  if (type === 'IN') return 'IN';
  if (type !== 'ADJUSTMENT') return after.quantity === 0n ? 'OUT/SALE all' : 'OUT/SALE part';
  if (after.quantity < before.quantity) return after.quantity === 0n ? 'ADJUSTMENT down to 0' : 'ADJUSTMENT down';
  if (after.quantity === before.quantity) return 'ADJUSTMENT same';
  return costed ? 'ADJUSTMENT up at cost' : before.quantity > 0n ? 'ADJUSTMENT up at value per unit' : 'ADJUSTMENT up at kept average';
}

describe('weighted average costing, against exact rationals', () => {
  it('keeps every balance and warehouse total equal to the written rule', () => {
    let conflicts = 0;
    const paths = new Set<string>();
    fc.assert(
      fc.property(fc.array(generatedMovement, { minLength: 1, maxLength: 60, size: 'max' }), fc.boolean(), (generated, countToZero) => {
        const exact = new Map<string, ExactBalance>();
        const reference = new Map<string, ReferenceBalance>();
        /** Accepted movements per balance: the quantity is their sum (ADJUSTMENT sets it). */
        const ledger = new Map<string, { type: MovementType; quantity: bigint }[]>();
        for (const step of generated) {
          const key = `${step.warehouse}/${step.product}`;
          const before = exact.get(key) ?? EMPTY_BALANCE;
          const referenceBefore = reference.get(key) ?? REFERENCE_EMPTY;
          // ADJUSTMENT may count 0 (on a random half of the runs, `whole` means a count of 0).
          const thousandths =
            (step.type === 'OUT' || step.type === 'SALE') && step.whole && referenceBefore.quantity.n > 0n
              ? Number(scaled(referenceBefore.quantity, 3))
              : step.type === 'ADJUSTMENT' && step.whole && countToZero
                ? 0
                : step.quantity;
          const quantityText = thousandths === 0 ? '0' : decimalString(thousandths, 3);
          const costText = step.type === 'IN' || (step.type === 'ADJUSTMENT' && step.costed) ? decimalString(step.unitCost, 4) : undefined;
          const input = movement(step.type, quantityText, costText);
          const q = rational(BigInt(thousandths), 1000n);
          const unitCost = costText === undefined ? undefined : rational(BigInt(step.unitCost), 10_000n);

          const expected = referenceMovement(referenceBefore, step.type, q, unitCost);
          if (!expected) {
            const onHand = decimalString(Number(scaled(referenceBefore.quantity, 3)), 3);
            expectConflict(
              () => applyMovement(before, input),
              `Not enough stock: ${withoutTrailingZeros(onHand)} on hand, ${withoutTrailingZeros(quantityText)} requested`,
            );
            conflicts += 1;
            continue;
          }
          const beforeCopy = { ...before };
          const after = applyMovement(before, input);
          expect(before).toEqual(beforeCopy);
          paths.add(pathOf(step.type, before, after, costText !== undefined));
          exact.set(key, after);
          reference.set(key, expected);
          const entries = [...(ledger.get(key) ?? []), { type: step.type, quantity: BigInt(thousandths) }];
          ledger.set(key, entries);

          expect(after).toEqual({ quantity: scaled(expected.quantity, 3), value: scaled(expected.value, 7), averageCost: scaled(expected.averageCost, 4) });
          const fromLedger = entries.reduce(
            (sum, entry) => (entry.type === 'IN' ? sum + entry.quantity : entry.type === 'ADJUSTMENT' ? entry.quantity : sum - entry.quantity),
            0n,
          );
          expect(after.quantity).toBe(fromLedger);
          expect(after.value >= 0n).toBe(true);
          if (after.quantity === 0n) expect(after.value).toBe(0n);

          // Warehouse totals: sums of the exact balances equal the sums of the reference's.
          for (let warehouse = 0; warehouse < WAREHOUSES; warehouse += 1) {
            const exactBalances = [...Array(PRODUCTS).keys()].map((product) => exact.get(`${warehouse}/${product}`) ?? EMPTY_BALANCE);
            const referenceBalances = [...Array(PRODUCTS).keys()].map((product) => reference.get(`${warehouse}/${product}`) ?? REFERENCE_EMPTY);
            const totals = {
              totalItems: exactBalances.reduce((sum, balance) => sum + balance.quantity, 0n),
              totalValue: exactBalances.reduce((sum, balance) => sum + balance.value, 0n),
              totalProducts: exactBalances.filter((balance) => balance.quantity !== 0n).length,
            };
            expect(totals).toEqual({
              totalItems: scaled(
                referenceBalances.reduce((sum, balance) => add(sum, balance.quantity), ZERO),
                3,
              ),
              totalValue: scaled(
                referenceBalances.reduce((sum, balance) => add(sum, balance.value), ZERO),
                7,
              ),
              totalProducts: referenceBalances.filter((balance) => compare(balance.quantity, ZERO) !== 0).length,
            });
          }
        }
      }),
      { numRuns: 300 },
    );
    // The runs went down every path of the rule.
    expect(conflicts).toBeGreaterThan(100);
    expect([...paths].sort()).toEqual([
      'ADJUSTMENT down',
      'ADJUSTMENT down to 0',
      'ADJUSTMENT same',
      'ADJUSTMENT up at cost',
      'ADJUSTMENT up at kept average',
      'ADJUSTMENT up at value per unit',
      'IN',
      'OUT/SALE all',
      'OUT/SALE part',
    ]);
  });
});
