import * as z from 'zod/mini';
import { isDay } from './days';
import { REQUIRED_TEXT_PATTERN, storableText } from './text';
import { schema } from './schema';

/** The metadata key under which a field states its text rule as a pattern (see `requiredText`). */
export const TEXT_PATTERN_META = 'x-text-pattern';

/**
 * `schema` with documentation for the OpenAPI document (tools/openapi): what classic zod's
 * `.meta()` does (a clone, registered with `meta` in the global registry), for zod/mini
 * schemas, which have no such method.
 */
export function documented<S extends z.ZodMiniType>(target: S, meta: Record<string, unknown>): S {
  const copy = target.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}

/*
 * The schemas the functions parse requests with, and the models, are zod/mini's: the same
 * validation and messages as classic zod, and the functions' bundles do not hold classic
 * zod's methods (about 65 KB and 5 ms of cold start). The OpenAPI document converts either.
 * Each top-level schema is built through `schema()` (./schema), so a bundle builds only those
 * its function uses; the views stay classic (./schema, "Views").
 */

/**
 * Field schemas shared by every resource (docs/api.md, "Request conventions"): strings are trimmed and
 * required ones non-empty after trimming; names up to 200 characters, e-mails up to 254 and
 * compared lower-cased; ids are UUIDs. Every stored text is text (see `./text`): no control,
 * bidirectional control or non-scalar characters.
 */
export const requiredText = (max: number) =>
  documented(
    z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`), z.superRefine(storableText)),
    // For the OpenAPI document (tools/openapi), which cannot read the trimming and the refinement.
    { [TEXT_PATTERN_META]: REQUIRED_TEXT_PATTERN },
  );

export const nameField = /* @__PURE__ */ schema(() => requiredText(200));

export const emailField = /* @__PURE__ */ schema(() =>
  z.pipe(
    z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254, 'must be at most 254 characters'), z.superRefine(storableText)),
    z.email('must be a valid e-mail address'),
  ),
);

export const uuidField = /* @__PURE__ */ schema(() => z.uuid('must be a UUID'));

/** Path parameters of `/{id}` routes: a non-UUID id is a 400. */
export const idPath = /* @__PURE__ */ schema(() => z.object({ id: uuidField }));

export const httpsUrlField = /* @__PURE__ */ schema(() =>
  z.url({ protocol: /^https$/, message: 'must be an https URL' }).check(z.maxLength(2048, 'must be at most 2048 characters')),
);

/**
 * A query-string integer: digits only (no sign, decimals, exponent or blanks, which
 * `Number()` would quietly accept), so the number is an integer; then range-checked (the
 * upper bound also refuses digits past the safe-integer range).
 */
export const queryInteger = (min: number, max: number, message: string) =>
  z.pipe(z.pipe(z.string().check(z.regex(/^[0-9]+$/, message)), z.transform(Number)), z.number().check(z.gte(min, message), z.lte(max, message)));

/**
 * A `from`/`to` bound of a time-ordered list (the stock history, the audit trail), both
 * inclusive: a business day `YYYY-MM-DD` (the whole day in the business time zone) or an ISO
 * 8601 date-time with its offset.
 */
const isoDateTime = /* @__PURE__ */ schema(() => z.iso.datetime({ offset: true }));
export const timeBound = /* @__PURE__ */ schema(() =>
  z
    .string()
    .check(
      z.refine(
        (value) => isDay(value) || isoDateTime.safeParse(value).success,
        'must be a day (YYYY-MM-DD, in the business time zone) or an ISO 8601 date-time',
      ),
    ),
);
