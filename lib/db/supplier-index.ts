/**
 * The supplier index's encoding and search, pure (no I/O). The compact supplier index stores, per
 * supplier, a sort name (its key orders the index) and a search haystack (the only text a
 * search reads); the matcher decides whether a haystack matches a query. Contract section 5:
 * case- and accent-insensitive, and documents and phones match with or without punctuation.
 */

/** How much of the normalized name orders the index (names sharing it tie, then go by id). */
export const SORT_NAME_MAX_CHARACTERS = 100;

/**
 * Separates the haystack's fields: a control character, which `normalizeText` never leaves
 * in a value or a query, so a query can never match across two fields.
 */
const FIELD_SEPARATOR = '\u001f';

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
 * The sort part of a supplier's index key: its normalized name, cut to
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

/** What search looks at in a supplier. */
export interface SearchableSupplier {
  name: string;
  corporateName: string;
  email: string | null;
  /** Normalized (unpunctuated, upper-case) CPF or CNPJ. */
  document: string;
  /** E.164. */
  phone: string | null;
}

/**
 * The search haystack stored in a supplier's index entry: normalized name, corporate name
 * and e-mail, the document in lower case and the phone's digits, in that order, joined by a
 * control character. Everything a search needs, and nothing else.
 */
export function searchHaystack(supplier: SearchableSupplier): string {
  return [
    normalizeText(supplier.name),
    normalizeText(supplier.corporateName),
    supplier.email === null ? '' : normalizeText(supplier.email),
    supplier.document.toLowerCase(),
    supplier.phone === null ? '' : supplier.phone.replace(/[^0-9]/g, ''),
  ].join(FIELD_SEPARATOR);
}

/**
 * A predicate over haystacks for one search query, or undefined for a blank query (no
 * search). A haystack matches when the normalized query is a substring of the name, the
 * corporate name or the e-mail, or when the query reduced to `[0-9a-z]` is a non-empty
 * substring of the document or of the phone's digits: `11.222.333`, `11222333`,
 * `+55 11 98765` and `(11) 98765-4321` all find what they should. A query with no letter
 * or digit is matched as text only.
 */
export function supplierMatcher(query: string): ((haystack: string) => boolean) | undefined {
  const text = normalizeText(query);
  if (text === '') return undefined;
  const compact = text.replace(/[^0-9a-z]/g, '');
  return (haystack) => {
    const [name = '', corporateName = '', email = '', document = '', phone = ''] = haystack.split(FIELD_SEPARATOR);
    if (name.includes(text) || corporateName.includes(text) || email.includes(text)) return true;
    return compact !== '' && (document.includes(compact) || phone.includes(compact));
  };
}
