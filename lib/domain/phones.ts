import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import * as z from 'zod';

/**
 * Phones are given in international format with a leading plus (spaces, dots, dashes and
 * parentheses allowed) and stored and returned as E.164. Validity (country plan, length,
 * number type) is libphonenumber's, with its full metadata.
 */
const ALLOWED = /^\+[0-9 .()-]+$/;

/** E.164 form of a valid international phone, or undefined. */
export function toE164(input: string): string | undefined {
  const value = input.trim();
  if (!ALLOWED.test(value)) return undefined;
  const phone = parsePhoneNumberFromString(value);
  return phone?.isValid() ? phone.number : undefined;
}

export const phoneSchema = z.string().transform((input, ctx) => {
  const e164 = toE164(input);
  if (!e164) {
    ctx.addIssue({ code: 'custom', message: 'must be a valid phone in international format, e.g. +55 11 98765-4321' });
    return z.NEVER;
  }
  return e164;
});
