import * as z from 'zod';
import { isDay } from './days';
import { REQUIRED_TEXT_PATTERN, storableText } from './text';

/** The metadata key under which a field states its text rule as a pattern (see `requiredText`). */
export const TEXT_PATTERN_META = 'x-text-pattern';

/**
 * Field schemas shared by every resource (contract section 1): strings are trimmed and
 * required ones non-empty after trimming; names up to 200 characters, e-mails up to 254 and
 * compared lower-cased; ids are UUIDs. Every stored text is text (see `./text`): no control,
 * bidirectional control or non-scalar characters.
 */
export const requiredText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .superRefine(storableText)
    // For the OpenAPI document (tools/openapi), which cannot read the trimming and the refinement.
    .meta({ [TEXT_PATTERN_META]: REQUIRED_TEXT_PATTERN });

export const nameField = requiredText(200);

export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .superRefine(storableText)
  .pipe(z.email('must be a valid e-mail address'));

export const uuidField = z.uuid('must be a UUID');

/** Path parameters of `/{id}` routes: a non-UUID id is a 400. */
export const idPath = z.object({ id: uuidField });

export const httpsUrlField = z
  .url({ protocol: /^https$/, message: 'must be an https URL' })
  .max(2048, 'must be at most 2048 characters');

/**
 * A query-string integer: digits only (no sign, decimals, exponent or blanks, which
 * `Number()` would quietly accept), so the number is an integer; then range-checked (the
 * upper bound also refuses digits past the safe-integer range).
 */
export const integerParam = (min: number, max: number, message: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

/**
 * A `from`/`to` bound of a time-ordered list (the stock history, the audit trail), both
 * inclusive: a business day `YYYY-MM-DD` (the whole day in the business time zone) or an ISO
 * 8601 date-time with its offset.
 */
export const timeBound = z
  .string()
  .refine(
    (value) => isDay(value) || z.iso.datetime({ offset: true }).safeParse(value).success,
    'must be a day (YYYY-MM-DD, in the business time zone) or an ISO 8601 date-time',
  );
