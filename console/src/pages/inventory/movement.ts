import type { components } from '@backoffice/client';
import { parseDecimal } from '../../format/decimal';
import type { Locale } from '../../i18n';

/**
 * The movement form's rules, apart from React so they are tested alone: which fields each type
 * takes, and what the typed text becomes in the request (parsed in the user's language, exact).
 * Limits from the API (docs/inventory.md, "Exact decimals"): quantities at most 3 decimal
 * places, unit costs at most 4, both at most 1,000,000,000.
 */
export const MOVEMENT_TYPES = ['IN', 'OUT', 'SALE', 'ADJUSTMENT'] as const;
export type MovementType = (typeof MOVEMENT_TYPES)[number];
/** The types the stock history shows and filters by: the form's, and the two sides of a transfer (recorded by the transfer form). */
export const HISTORY_TYPES = [...MOVEMENT_TYPES, 'TRANSFER_OUT', 'TRANSFER_IN'] as const satisfies readonly components['schemas']['Movement']['type'][];
type ProductStatus = components['schemas']['Product']['status'];

/** The types an INACTIVE product refuses (409): those that bring or sell stock. */
const REFUSED_WHEN_INACTIVE: readonly MovementType[] = ['IN', 'SALE'];

/**
 * The types a product of this status takes: every one when ACTIVE; OUT and ADJUSTMENT only
 * when INACTIVE (its stock can still leave or be counted down to zero), so the form offers
 * only what the API would accept.
 */
export function movementTypesFor(status: ProductStatus): readonly MovementType[] {
  return status === 'INACTIVE' ? MOVEMENT_TYPES.filter((type) => !REFUSED_WHEN_INACTIVE.includes(type)) : MOVEMENT_TYPES;
}
export type CreateMovement = components['schemas']['CreateMovementRequest'];

export const QUANTITY_PLACES = 3;
export const UNIT_COST_PLACES = 4;
const MAXIMUM = 1_000_000_000;

/** Unit cost: required for IN, refused for OUT and SALE, optional for ADJUSTMENT. */
export function unitCostRule(type: MovementType): 'required' | 'refused' | 'optional' {
  if (type === 'IN') return 'required';
  if (type === 'ADJUSTMENT') return 'optional';
  return 'refused';
}

export interface MovementInput {
  type: MovementType;
  warehouseId: string;
  quantity: string;
  unitCost: string;
  /** `YYYY-MM-DDTHH:mm` of a datetime-local input, in the browser's zone; empty for now. */
  occurredAt: string;
}

export type MovementField = 'warehouseId' | 'quantity' | 'unitCost' | 'occurredAt';
export type MovementProblem = 'required' | 'invalid' | 'places' | 'positive' | 'negative';
export type MovementErrors = Partial<Record<MovementField, MovementProblem>>;

export type MovementCheck = { ok: true; body: CreateMovement } | { ok: false; errors: MovementErrors };

/** A typed amount in the user's language: at most `places` decimals, positive (or also zero), at most 1,000,000,000. */
export function parseAmount(
  input: string,
  locale: Locale,
  places: number,
  allowZero: boolean,
): { ok: true; value: number } | { ok: false; problem: MovementProblem } {
  const parsed = parseDecimal(input, locale, places);
  if (!parsed.ok) return { ok: false, problem: parsed.reason === 'empty' ? 'required' : parsed.reason };
  if (parsed.text.startsWith('-')) return { ok: false, problem: allowZero ? 'negative' : 'positive' };
  if (!allowZero && /^[0.]+$/.test(parsed.text)) return { ok: false, problem: 'positive' };
  // Compared on the text's whole part: no float arithmetic on what the user typed.
  const whole = parsed.text.split('.')[0] ?? '0';
  if (whole.length > 10 || (whole.length === 10 && parsed.text !== String(MAXIMUM))) return { ok: false, problem: 'invalid' };
  return { ok: true, value: Number(parsed.text) };
}

/** The request the form sends, or what is wrong with each field. */
export function checkMovement(productId: string, input: MovementInput, locale: Locale): MovementCheck {
  const errors: MovementErrors = {};
  if (!input.warehouseId) errors.warehouseId = 'required';
  const quantity = parseAmount(input.quantity, locale, QUANTITY_PLACES, input.type === 'ADJUSTMENT');
  if (!quantity.ok) errors.quantity = quantity.problem;
  const rule = unitCostRule(input.type);
  let unitCost: number | undefined;
  if (rule !== 'refused' && !(rule === 'optional' && input.unitCost.trim() === '')) {
    const cost = parseAmount(input.unitCost, locale, UNIT_COST_PLACES, true);
    if (cost.ok) unitCost = cost.value;
    else errors.unitCost = cost.problem;
  }
  let occurredAt: string | undefined;
  if (input.occurredAt.trim() !== '') {
    const date = new Date(input.occurredAt);
    if (Number.isNaN(date.getTime())) errors.occurredAt = 'invalid';
    else occurredAt = date.toISOString();
  }
  if (Object.keys(errors).length > 0 || !quantity.ok) return { ok: false, errors };
  const common = { productId, warehouseId: input.warehouseId, quantity: quantity.value, ...(occurredAt ? { occurredAt } : {}) };
  switch (input.type) {
    case 'IN':
      return { ok: true, body: { ...common, type: 'IN', unitCost: unitCost ?? 0 } };
    case 'ADJUSTMENT':
      return { ok: true, body: { ...common, type: 'ADJUSTMENT', ...(unitCost === undefined ? {} : { unitCost }) } };
    case 'OUT':
      return { ok: true, body: { ...common, type: 'OUT' } };
    case 'SALE':
      return { ok: true, body: { ...common, type: 'SALE' } };
  }
}
