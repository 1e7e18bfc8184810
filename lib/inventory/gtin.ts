/**
 * GTIN (the barcode's number: EAN-8, UPC-A, EAN-13, GTIN-14), pure. The last digit checks
 * the others: weigh the data digits 3, 1, 3, … from the right, and the check digit is what
 * takes the sum to the next multiple of 10 (GS1 General Specifications, 7.9.1).
 */

/** The lengths a GTIN has: GTIN-8, -12, -13 and -14. */
export const GTIN_LENGTHS = [8, 12, 13, 14] as const;

/** The check digit of a GTIN's data digits (all but the last). */
export function gtinCheckDigit(data: string): number {
  let sum = 0;
  for (let index = 0; index < data.length; index += 1) {
    const fromRight = data.length - 1 - index;
    sum += Number(data[index]) * (fromRight % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** Why `value` is not a GTIN, or undefined when it is one (digits only, a GTIN length, the right check digit). */
export function gtinProblem(value: string): string | undefined {
  if (!/^[0-9]+$/.test(value) || !(GTIN_LENGTHS as readonly number[]).includes(value.length)) {
    return 'must be a GTIN: 8, 12, 13 or 14 digits, nothing else';
  }
  const expected = gtinCheckDigit(value.slice(0, -1));
  return Number(value.at(-1)) === expected ? undefined : `has a wrong check digit: ${value.at(-1)} where ${expected} was expected`;
}
