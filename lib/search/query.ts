/** A search term as the index matches it, pure. */
import { normalizeText } from '../db/name-order';
import type { SearchQuery } from './model';

/**
 * A search term as lists match it: case- and accent-insensitive; documents and phones match
 * with or without punctuation (`11.222.333`, `11222333`, `(11) 98765-4321`). A query with no
 * letter or digit is matched as text only.
 */
export function searchQuery(value: string): SearchQuery | undefined {
  const text = normalizeText(value);
  if (text === '') return undefined;
  return { text, compact: text.replace(/[^0-9a-z]/g, '') };
}
