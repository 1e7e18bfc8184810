import { parsePhoneNumberFromString, type MetadataJson } from 'libphonenumber-js/core';
import * as z from 'zod/mini';
import metadata from './phone-metadata.json';
import { schema } from './schema';

/**
 * Phones are given in international format with a leading plus (spaces, dots, dashes and
 * parentheses allowed) and stored and returned as E.164. Validity (country plan, length,
 * number type) is libphonenumber's, with its full metadata for the country calling codes the
 * service accepts (./phone-metadata.json, written by `npm run phone-metadata` from the list in
 * tools/phone-metadata.ts); a number under any other code is not a valid phone here. The whole
 * metadata, every country, was 190 KB of each function that validates phones.
 */
const ALLOWED = /^\+[0-9 .()-]+$/;

const METADATA = metadata as unknown as MetadataJson;

/** E.164 form of a valid international phone, or undefined. */
export function toE164(input: string): string | undefined {
  const value = input.trim();
  if (!ALLOWED.test(value)) return undefined;
  const phone = parsePhoneNumberFromString(value, METADATA);
  return phone?.isValid() ? phone.number : undefined;
}

export const phoneSchema = /* @__PURE__ */ schema(() =>
  z.pipe(
    z.string(),
    z.transform((input: string, ctx) => {
      const e164 = toE164(input);
      if (!e164) {
        ctx.issues.push({ code: 'custom', message: 'must be a valid phone in international format, e.g. +55 11 98765-4321', input });
        return z.NEVER;
      }
      return e164;
    }),
  ),
);
