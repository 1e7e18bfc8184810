/**
 * A valid CNPJ from its first 12 digits: the two check digits computed (mod 11, weights
 * 5..2 9..2, then 6..2 9..2). The benchmarks' loaders make many distinct, valid documents
 * from an index with it.
 */
export function cnpjWithCheckDigits(base: string): string {
  const digit = (digits: string) => {
    const weights = digits.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const sum = digits.split('').reduce((total, char, position) => total + (char.charCodeAt(0) - 48) * (weights[position] as number), 0);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const first = digit(base);
  return `${base}${first}${digit(`${base}${first}`)}`;
}
