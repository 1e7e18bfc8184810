import { createHash } from 'node:crypto';

/** SHA-256 of a text (UTF-8) in hex: how a secret or a client's key is stored without itself. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** A UUID (version 4's shape) made from a text: the same text, the same id; what a write that must happen once per name keys on. */
export function uuidOf(text: string): string {
  const hex = sha256Hex(text);
  const variant = (8 | (Number.parseInt(hex.charAt(16), 16) & 3)).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
