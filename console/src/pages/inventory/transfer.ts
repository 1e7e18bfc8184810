import type { CreateTransfer } from '../../api/transfers';
import { failureOf } from '../../api/problems';
import type { Locale } from '../../i18n';
import { parseAmount, QUANTITY_PLACES, type MovementProblem } from './movement';
import type { ProductUnit } from './product';

/**
 * The transfer form's rules, apart from React so they are tested alone: what the typed text
 * becomes in the request, and what the API's refusals mean. The API's limits (docs/inventory.md):
 * a quantity above 0 with at most 3 decimal places, whole for a product of a whole unit; two
 * different warehouses; a note of at most 500 characters.
 */
export const MAX_NOTE = 500;

/** The units whose quantities take decimals; every other unit counts whole units only (as the API's `quantityFitsUnit`). */
const FRACTIONAL_UNITS: readonly ProductUnit[] = ['KG', 'G', 'L', 'ML', 'M', 'M2', 'M3'];
export const takesFractions = (unit: ProductUnit) => FRACTIONAL_UNITS.includes(unit);

export interface TransferInput {
  /** Empty until a product is chosen (the inventory page's form). */
  productId: string;
  fromWarehouseId: string;
  toWarehouseId: string;
  quantity: string;
  note: string;
}

export type TransferField = 'productId' | 'fromWarehouseId' | 'toWarehouseId' | 'quantity' | 'note';
export type TransferProblem = MovementProblem | 'sameWarehouse' | 'whole' | 'tooLong';
export type TransferErrors = Partial<Record<TransferField, TransferProblem>>;

export type TransferCheck = { ok: true; body: CreateTransfer } | { ok: false; errors: TransferErrors };

/** The request the form sends, or what is wrong with each field; `unit` is the product's (unknown: the server checks wholeness). */
export function checkTransfer(input: TransferInput, unit: ProductUnit | undefined, locale: Locale): TransferCheck {
  const errors: TransferErrors = {};
  if (!input.productId) errors.productId = 'required';
  if (!input.fromWarehouseId) errors.fromWarehouseId = 'required';
  if (!input.toWarehouseId) errors.toWarehouseId = 'required';
  else if (input.toWarehouseId === input.fromWarehouseId) errors.toWarehouseId = 'sameWarehouse';
  const quantity = parseAmount(input.quantity, locale, QUANTITY_PLACES, false);
  if (!quantity.ok) errors.quantity = quantity.problem;
  else if (unit && !takesFractions(unit) && !Number.isInteger(quantity.value)) errors.quantity = 'whole';
  const note = input.note.trim();
  if (note.length > MAX_NOTE) errors.note = 'tooLong';
  if (Object.keys(errors).length > 0 || !quantity.ok) return { ok: false, errors };
  return {
    ok: true,
    body: {
      productId: input.productId,
      fromWarehouseId: input.fromWarehouseId,
      toWarehouseId: input.toWarehouseId,
      quantity: quantity.value,
      ...(note ? { note } : {}),
    },
  };
}

/** `2.000` → `2`, `2.500` → `2.5`: the API's fixed three places, as the console shows decimals elsewhere. */
const withoutTrailingZeros = (text: string) => (text.includes('.') ? text.replace(/\.?0+$/, '') : text);

/**
 * A refusal for want of stock (409, "Not enough stock: 2.000 on hand, 3.000 requested"): the
 * two quantities, for the form to say in the user's language; undefined for any other failure.
 */
export function notEnoughStock(error: unknown): { onHand: string; requested: string } | undefined {
  const failure = error ? failureOf(error) : undefined;
  if (failure?.kind !== 'problem' || failure.status !== 409) return undefined;
  const match = /^Not enough stock: (-?\d+(?:\.\d+)?) on hand, (\d+(?:\.\d+)?) requested/.exec(failure.detail);
  if (!match) return undefined;
  return { onHand: withoutTrailingZeros(match[1] ?? '0'), requested: withoutTrailingZeros(match[2] ?? '0') };
}

/** A refusal because a warehouse's company is halted (409, "The warehouse's company is BLOCKED: …"): that status; undefined otherwise. */
export function haltedCompany(error: unknown): 'BLOCKED' | 'SUSPENDED' | undefined {
  const failure = error ? failureOf(error) : undefined;
  if (failure?.kind !== 'problem' || failure.status !== 409) return undefined;
  const status = /^The warehouse's company is (BLOCKED|SUSPENDED)\b/.exec(failure.detail)?.[1];
  return status === 'BLOCKED' || status === 'SUSPENDED' ? status : undefined;
}
