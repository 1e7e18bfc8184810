import { cnpj, cpf } from 'cpf-cnpj-validator';
import * as z from 'zod/mini';
import { schema } from './schema';

/**
 * Brazilian fiscal documents: CPF (11 digits) and CNPJ (14 characters, the last two check
 * digits; since IN RFB 2.229/2024 the first 12 may be letters). Check digits are verified
 * by `cpf-cnpj-validator`, which implements the RFB's mod-11 rule with ASCII-48 values for
 * alphanumeric CNPJs and refuses repeated-character strings.
 *
 * Input is unpunctuated (docs/api.md, "Request conventions"); lower-case letters are upper-cased.
 */

export type DocumentKind = 'CPF' | 'CNPJ';

const CPF_PATTERN = /^[0-9]{11}$/;
const CNPJ_PATTERN = /^[0-9A-Z]{12}[0-9]{2}$/;

export type DocumentCheck = { ok: true; kind: DocumentKind; value: string } | { ok: false; message: string };

/** Validate an unpunctuated CPF or CNPJ; on success, the normalized (upper-case) value. */
export function checkDocument(input: string): DocumentCheck {
  const value = input.trim().toUpperCase();
  if (CPF_PATTERN.test(value)) {
    return cpf.isValid(value) ? { ok: true, kind: 'CPF', value } : { ok: false, message: 'check digits do not match' };
  }
  if (CNPJ_PATTERN.test(value)) {
    return cnpj.isValid(value) ? { ok: true, kind: 'CNPJ', value } : { ok: false, message: 'check digits do not match' };
  }
  return {
    ok: false,
    message: 'must be a CPF (11 digits) or a CNPJ (14 characters, letters allowed in the first 12) without punctuation',
  };
}

/** `529.982.247-25`, `11.222.333/0001-81`, `12.ABC.345/01DE-35`. */
export function formatDocument(value: string): string {
  return value.length === 11 ? cpf.format(value) : cnpj.format(value);
}

/** zod schema of a document field: validates and normalizes. */
export const documentSchema = /* @__PURE__ */ schema(() =>
  z.pipe(
    z.string(),
    z.transform((input: string, ctx) => {
      const result = checkDocument(input);
      if (!result.ok) {
        ctx.issues.push({ code: 'custom', message: result.message, input });
        return z.NEVER;
      }
      return result.value;
    }),
  ),
);
