import { randomBytes } from 'node:crypto';

/**
 * Base62 (`0-9A-Za-z`): ids that carry what locates their record (an API key's tenant, a
 * webhook delivery's endpoint and time) in characters that need no escaping in a URL. Pure.
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** How many base62 characters a UUID takes. */
export const UUID_BASE62_CHARS = 22;

/** `value` in exactly `width` characters (zeros in front); throws when it does not fit. */
export function toBase62(value: bigint, width: number): string {
  let text = '';
  let rest = value;
  while (rest > 0n) {
    text = ALPHABET[Number(rest % 62n)] + text;
    rest /= 62n;
  }
  if (text.length > width) throw new Error('value too large for its width');
  return text.padStart(width, '0');
}

/** The value of base62 text (the caller checks the text's characters). */
export function fromBase62(text: string): bigint {
  let value = 0n;
  for (const char of text) value = value * 62n + BigInt(ALPHABET.indexOf(char));
  return value;
}

/** Random base62 characters, without bias (bytes of 248 and over are drawn again). */
export function randomBase62(length: number): string {
  let text = '';
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && text.length < length) text += ALPHABET[byte % 62];
    }
  }
  return text;
}

export const uuidToBase62 = (uuid: string): string => toBase62(BigInt(`0x${uuid.replaceAll('-', '')}`), UUID_BASE62_CHARS);

/** The UUID written by `uuidToBase62`, or undefined when the text holds more than 128 bits. */
export function base62ToUuid(text: string): string | undefined {
  const value = fromBase62(text);
  if (value >= 1n << 128n) return undefined;
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
