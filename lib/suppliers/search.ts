/**
 * The supplier index's encoding and search, pure (no I/O). The compact supplier index stores, per
 * supplier, a sort name (its key orders the index) and a search haystack (the only text a
 * search reads); the matcher decides whether a haystack matches a query, as docs/api.md ("Request conventions") says:
 * case- and accent-insensitive, and documents and phones match with or without punctuation.
 */
import { normalizeText, sortName } from '../db/name-order';
import { FIELD_SEPARATOR as RECORD_FIELD_SEPARATOR, type SearchRecord } from '../search/model';
import type { Supplier } from './model';

export { normalizeText, sortName, SORT_NAME_MAX_CHARACTERS } from '../db/name-order';

/**
 * Separates the haystack's fields: a control character, which `normalizeText` never leaves
 * in a value or a query, so a query can never match across two fields.
 */
const FIELD_SEPARATOR = '\u001f';

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

/** What a supplier search page shows of each supplier (its view, before the document is formatted). */
export type SupplierFields = Omit<Supplier, 'createdAt' | 'updatedAt'>;

/**
 * A supplier's version `version` as the in-memory search holds it (lib/search): ordered by
 * its index entry's key, matched by the text and digits of the haystack above, shown from
 * its fields without id and timestamps, as a JSON array (a third the size of the object,
 * which a cold load parses 100,000 times).
 */
export function supplierSearchRecord(supplier: Supplier, version: number): SearchRecord {
  return {
    id: supplier.id,
    version,
    key: `${sortName(supplier.name)}#${supplier.id}`,
    words: [normalizeText(supplier.name), normalizeText(supplier.corporateName), supplier.email === null ? '' : normalizeText(supplier.email)].join(
      RECORD_FIELD_SEPARATOR,
    ),
    digits: [supplier.document.toLowerCase(), supplier.phone === null ? '' : supplier.phone.replace(/[^0-9]/g, '')].join(RECORD_FIELD_SEPARATOR),
    view: JSON.stringify([supplier.name, supplier.corporateName, supplier.document, supplier.email, supplier.phone, supplier.active]),
  };
}

/** The fields of a supplier from its search record. */
export function supplierFieldsOf(record: SearchRecord): SupplierFields {
  const [name, corporateName, document, email, phone, active] = JSON.parse(record.view) as [string, string, string, string | null, string | null, boolean];
  return { id: record.id, name, corporateName, document, email, phone, active };
}
