import { createHash } from 'node:crypto';

/** SHA-256 of a text (UTF-8) in hex: how a secret or a client's key is stored without itself. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
