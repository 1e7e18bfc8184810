import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ValidationError, type FieldError } from '../errors';

/**
 * zod's English messages ("Invalid input: expected string, received number"), for the issues
 * whose schema gives none of its own. Classic zod sets them for the whole process when it
 * builds its first schema; zod/mini, which the request schemas use, sets none (every such
 * message would read "Invalid input"). Given to each parse here, where requests are parsed,
 * rather than set for the process, and made on the first issue that needs one.
 */
let english: z.core.$ZodErrorMap | undefined;
const englishMessages: z.core.$ZodErrorMap = (issue) => (english ??= en().localeError)(issue);

/** zod issues as the `errors` array of a 400 problem: one entry per field, named by its path. */
export function fieldErrors(error: z.core.$ZodError, prefix?: string): FieldError[] {
  const result: FieldError[] = [];
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        result.push({ field: path ? `${path}.${key}` : key, message: 'unknown field' });
      }
      continue;
    }
    // An invalid record key: its own message (zod says only "Invalid key in record").
    if (issue.code === 'invalid_key') {
      result.push({ field: path, message: `key ${issue.issues[0]?.message ?? 'is invalid'}` });
      continue;
    }
    // A missing field reads better than zod's "expected string, received undefined".
    const missing = issue.code === 'invalid_type' && issue.input === undefined;
    result.push({ field: path, message: missing ? 'is required' : issue.message });
  }
  return result;
}

/** Parse `value` with `schema` or throw a 400 ValidationError listing every problem. */
export function parseWith<S extends z.core.$ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  // reportInput: the issues carry the offending value, so a missing field can say so. The
  // values never leave this function: only field names and messages do. Classic and mini
  // schemas alike (zod's own safeParse, not a method of either).
  const parsed = z.safeParse(schema, value, { reportInput: true, error: englishMessages });
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error, prefix));
  return parsed.data;
}
