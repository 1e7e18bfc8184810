/** Dashboard numbers to 2 decimals, money to cents (contract section 5). */
export const round2 = (value: number): number => Math.round((value + Number.EPSILON) * 100) / 100;
export const roundMoney = round2;
/** Quantities keep up to 4 decimals (what the API accepts), without float noise. */
export const roundQuantity = (value: number): number => Math.round(value * 1e4) / 1e4;
