import { divideRounded, formatScaled, QUANTITY_PLACES } from '../domain/decimal';
import { Conflict } from '../errors';
import type { MovementType } from './model';

/**
 * Weighted-average costing, exact: quantities, values and costs are scaled integers
 * (`../domain/decimal`), so IN 0.3 then OUT 0.1 and OUT 0.2 leaves exactly nothing, and the
 * value of a balance is always the sum of what came in minus what went out. Pure: no I/O,
 * no clock, no floats. The rule, for a movement of quantity q:
 *
 * - IN: quantity += q; value += q × unitCost (exact, no rounding: thousandths ×
 *   ten-thousandths = 10^-7). unitCost is required for IN.
 * - OUT and SALE of q: if q > quantity, Conflict ("Not enough stock: <on hand> on hand,
 *   <q> requested"). If q equals the quantity, the whole value leaves (the balance returns to
 *   exactly 0 value). Otherwise the value leaving is divideRounded(value × q, quantity).
 * - ADJUSTMENT sets the counted quantity t (t may be 0): the difference d = t − quantity.
 *   d < 0 leaves exactly as an OUT of −d. d > 0 adds units valued at unitCost when given
 *   (d × unitCost), else at the current average: divideRounded(value × d, quantity) when
 *   quantity > 0, else d × averageCost (the average kept from before it reached zero).
 *   d = 0 changes nothing.
 * - TRANSFER_OUT leaves as an OUT. TRANSFER_IN of q carrying the exact value v (what left the
 *   source: lib/transfers) adds q and v, no rounding: the value a transfer moves is the same on
 *   both sides to the 10^-7.
 * - After every movement: averageCost = divideRounded(value, quantity) when quantity > 0
 *   (10^-7 / 10^-3 = 10^-4 per unit), else the previous averageCost is kept.
 *
 * divideRounded rounds half to even, the one rounding rule of `../domain/decimal`.
 */

export type { MovementType };

/** quantity: thousandths of a unit; value: 10^-7 currency (quantity x unit cost, exact); averageCost: 10^-4 currency per unit. */
export interface ExactBalance {
  quantity: bigint;
  value: bigint;
  averageCost: bigint;
}

export const EMPTY_BALANCE: ExactBalance = Object.freeze({ quantity: 0n, value: 0n, averageCost: 0n });

/** quantity in thousandths of a unit, unitCost in 10^-4 currency per unit, value (a TRANSFER_IN's) in 10^-7. */
export interface ExactMovement {
  type: MovementType;
  quantity: bigint;
  unitCost?: bigint;
  value?: bigint;
}

/** The balance after `movement` (see the rule above); `balance` is not changed. */
export function applyMovement(balance: ExactBalance, movement: ExactMovement): ExactBalance {
  const { type, quantity: q, unitCost } = movement;
  if (unitCost !== undefined && unitCost < 0n) throw new Error(`unitCost must not be negative, got ${unitCost}`);
  switch (type) {
    case 'IN':
      if (q <= 0n) throw new Error(`IN quantity must be positive, got ${q}`);
      if (unitCost === undefined) throw new Error('IN requires a unitCost');
      return settle(balance, balance.quantity + q, balance.value + q * unitCost);
    case 'OUT':
    case 'SALE':
    case 'TRANSFER_OUT':
      if (q <= 0n) throw new Error(`${type} quantity must be positive, got ${q}`);
      return takeOut(balance, q);
    case 'TRANSFER_IN':
      if (q <= 0n) throw new Error(`TRANSFER_IN quantity must be positive, got ${q}`);
      if (movement.value === undefined || movement.value < 0n) throw new Error('TRANSFER_IN requires the value it carries');
      return settle(balance, balance.quantity + q, balance.value + movement.value);
    case 'ADJUSTMENT': {
      if (q < 0n) throw new Error(`ADJUSTMENT quantity must not be negative, got ${q}`);
      const difference = q - balance.quantity;
      if (difference < 0n) return takeOut(balance, -difference);
      if (difference === 0n) return { ...balance };
      const added =
        unitCost !== undefined
          ? difference * unitCost
          : balance.quantity > 0n
            ? divideRounded(balance.value * difference, balance.quantity)
            : difference * balance.averageCost;
      return settle(balance, q, balance.value + added);
    }
  }
}

/**
 * The last cost after a movement (the replacement cost a REPLACEMENT company values stock at,
 * 10^-4 per unit): the unit cost of an IN, of an ADJUSTMENT that gave one, or the source's last
 * cost a TRANSFER_IN carries; else unchanged.
 */
export function lastCostAfter(previous: bigint, movement: ExactMovement): bigint {
  return movement.unitCost !== undefined && (movement.type === 'IN' || movement.type === 'ADJUSTMENT' || movement.type === 'TRANSFER_IN')
    ? movement.unitCost
    : previous;
}

/**
 * What a transfer of q carries out of its source balance: the value that leaves it by the
 * weighted-average rule (exact), or, for a source whose company values at REPLACEMENT, q at the
 * source's last cost (when it has one). With the source balance after the TRANSFER_OUT.
 */
export function transferOut(
  source: ExactBalance & { lastCost: bigint },
  q: bigint,
  method: 'WEIGHTED_AVERAGE' | 'REPLACEMENT',
): { after: ExactBalance; value: bigint } {
  const after = applyMovement(source, { type: 'TRANSFER_OUT', quantity: q });
  const value = method === 'REPLACEMENT' && source.lastCost > 0n ? valueAt(q, source.lastCost) : source.value - after.value;
  return { after, value };
}

/** Stock valued at a unit cost, exactly: thousandths x 10^-4 = 10^-7 of the currency (the value's own places). */
export const valueAt = (quantity: bigint, unitCost: bigint): bigint => quantity * unitCost;

/** OUT, SALE and a downward ADJUSTMENT: the units leave at the balance's own value per unit. */
function takeOut(balance: ExactBalance, q: bigint): ExactBalance {
  if (q > balance.quantity) {
    throw new Conflict(`Not enough stock: ${formatScaled(balance.quantity, QUANTITY_PLACES)} on hand, ${formatScaled(q, QUANTITY_PLACES)} requested`);
  }
  // The last units take the whole value, so rounding never leaves value without stock.
  const leaving = q === balance.quantity ? balance.value : divideRounded(balance.value * q, balance.quantity);
  return settle(balance, balance.quantity - q, balance.value - leaving);
}

function settle(previous: ExactBalance, quantity: bigint, value: bigint): ExactBalance {
  return { quantity, value, averageCost: quantity > 0n ? divideRounded(value, quantity) : previous.averageCost };
}
