import type * as z from 'zod';
import { ValidationError, type FieldError } from '../errors';

/** zod issues as the `errors` array of a 400 problem: one entry per field, named by its path. */
export function fieldErrors(error: z.ZodError, prefix?: string): FieldError[] {
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
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  // reportInput: the issues carry the offending value, so a missing field can say so. The
  // values never leave this function: only field names and messages do.
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error, prefix));
  return parsed.data;
}
