import { MONEY_PLACES, QUANTITY_PLACES, rescale, scaledToNumber } from '../domain/decimal';

/**
 * How exact values are shown (docs/api.md, "Request conventions": numbers to 2 decimals, money to cents),
 * rounded half to even from the exact value, never from a float (lib/domain/decimal).
 */

/** A quantity (thousandths) as the API shows it: every one of its 3 decimals. */
export const quantityOf = (thousandths: bigint): number => scaledToNumber(thousandths, QUANTITY_PLACES);

/** A quantity (thousandths) on a dashboard: 2 decimals. */
export const dashboardQuantity = (thousandths: bigint): number => scaledToNumber(rescale(thousandths, QUANTITY_PLACES, 2), 2);

/** An exact amount of `places` decimals, in cents. */
export const moneyOf = (units: bigint, places: number): number => scaledToNumber(rescale(units, places, MONEY_PLACES), MONEY_PLACES);
