import type { z } from 'zod';
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
    result.push({ field: path, message: issue.message });
  }
  return result;
}

/** Parse `value` with `schema` or throw a 400 ValidationError listing every problem. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix?: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(fieldErrors(parsed.error, prefix));
  return parsed.data;
}
