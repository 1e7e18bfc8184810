import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * Reorder settings and purchase suggestions. A product's settings, for one warehouse or for
 * all (`warehouseId` null): the reorder point (buy when available + on order falls below it),
 * the days of cover an order should reach (`targetDays`) and the days of margin over the lead
 * time (`safetyDays`). Suggestions compare them, with the supplier's lead time, pack and
 * minimum, to the product's average daily sales of the coverage roll-up.
 */
export const reorderSettingsSchema = /* @__PURE__ */ schema(() =>
  z.object({
    productId: z.uuid(),
    /** The warehouse they hold for; null: every warehouse without its own. */
    warehouseId: z.nullable(z.uuid()),
    /** Thousandths of a unit; null: none. */
    reorderPoint: z.nullable(z.bigint()),
    targetDays: z.number().check(z.int()),
    safetyDays: z.number().check(z.int()),
    updatedAt: z.iso.datetime(),
  }),
);
export type ReorderSettings = z.infer<typeof reorderSettingsSchema>;

export const DEFAULT_TARGET_DAYS = 30;
export const DEFAULT_SAFETY_DAYS = 3;
export const MAX_REORDER_DAYS = 365;

/** What a suggestion is computed from, all exact: units in thousandths. */
export interface SuggestionInput {
  /** Units sold in the window of `days` days (thousandths). */
  sold: bigint;
  days: number;
  available: bigint;
  onOrder: bigint;
  leadTimeDays: number;
  safetyDays: number;
  targetDays: number;
  reorderPoint: bigint | null;
  /** The product's units in one of the supplier's (thousandths, > 0). */
  unitsPerPack: bigint;
  minimumOrder: bigint | null;
  /** Whether the product takes only whole units. */
  whole: boolean;
}

/** Thousandths per unit. */
const UNIT = 1000n;
const ceilDiv = (a: bigint, b: bigint): bigint => (a <= 0n ? 0n : (a + b - 1n) / b);

/**
 * The quantity to buy (thousandths), or 0 when none is needed. Needed when available + on order
 * falls short of the average daily sales × (lead time + safety days), or below the reorder
 * point; then targetDays × average − available − on order, when positive (at least what takes
 * it back to the reorder point), raised to the minimum order and rounded up to whole packs (and
 * whole units for a product of whole units). The average's product is rounded up to the
 * thousandth: a suggestion never falls short by a rounding.
 */
export function suggestedQuantity(input: SuggestionInput): bigint {
  const covered = input.available + input.onOrder;
  const days = BigInt(input.days);
  const horizon = ceilDiv(input.sold * BigInt(input.leadTimeDays + input.safetyDays), days);
  const short = (input.sold > 0n && covered < horizon) || (input.reorderPoint !== null && covered < input.reorderPoint);
  if (!short) return 0n;
  const target = ceilDiv(input.sold * BigInt(input.targetDays), days);
  let need = target - covered;
  if (input.reorderPoint !== null && input.reorderPoint - covered > need) need = input.reorderPoint - covered;
  if (need <= 0n) return 0n;
  if (input.minimumOrder !== null && need < input.minimumOrder) need = input.minimumOrder;
  let quantity = ceilDiv(need, input.unitsPerPack) * input.unitsPerPack;
  if (input.whole) quantity = ceilDiv(quantity, UNIT) * UNIT;
  return quantity;
}
