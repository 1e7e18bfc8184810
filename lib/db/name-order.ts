/**
 * Name order for key design, pure: the normalized form a listing's sort key is built from, so
 * that a Query returns names in the order people read them (case- and accent-insensitive).
 * The supplier index and the warehouse listing key their entries with it.
 */

/** How much of the normalized name orders the index (names sharing it tie, then go by id). */
export const SORT_NAME_MAX_CHARACTERS = 100;

/**
 * Case- and accent-insensitive form of a text: compatibility decomposition (NFKD, which also
 * folds ligatures, full-width forms and `ª`/`º`), lower case, combining marks removed,
 * whitespace and control characters collapsed to single spaces, trimmed.
 * `  São   PAULO ` -> `sao paulo`.
 */
export function normalizeText(value: string): string {
  return value
    .normalize('NFKD')
    .toLowerCase()
    .replace(/\p{M}+/gu, '')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

/**
 * The sort part of a listing key (a supplier's index entry, a warehouse's listing entry): its normalized name, cut to
 * {@link SORT_NAME_MAX_CHARACTERS} characters, in an order-preserving encoding that keeps
 * every character above `#`, the separator that follows it in the key
 * (`<sortName>#<supplierId>`). Without it `acme ltda#…` would sort before `acme#…`, since a
 * space is below `#`. The characters space to `$` become `$` and a letter (space -> `` $` ``,
 * `!` -> `$a`, ..., `$` -> `$d`): `$` is below every character left unescaped, and the
 * escaped ones keep their relative order.
 */
export function sortName(name: string): string {
  const cut = Array.from(normalizeText(name)).slice(0, SORT_NAME_MAX_CHARACTERS).join('');
  return cut.replace(/[\u0020-\u0024]/g, (character) => `$${String.fromCharCode(0x40 + character.charCodeAt(0))}`);
}
