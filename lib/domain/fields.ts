import * as classic from 'zod';
import * as z from 'zod/mini';
import { isDay } from './days';
import { REQUIRED_TEXT_PATTERN, storableText } from './text';

/** The metadata key under which a field states its text rule as a pattern (see `requiredText`). */
export const TEXT_PATTERN_META = 'x-text-pattern';

/**
 * `schema` with documentation for the OpenAPI document (tools/openapi): what classic zod's
 * `.meta()` does (a clone, registered with `meta` in the global registry), for zod/mini
 * schemas, which have no such method.
 */
export function documented<S extends z.ZodMiniType>(schema: S, meta: Record<string, unknown>): S {
  const copy = schema.clone();
  z.globalRegistry.add(copy, meta);
  return copy;
}

/*
 * The schemas the functions parse requests with, and the models, are zod/mini's: the same
 * validation and messages as classic zod, and the functions' bundles do not hold classic
 * zod's methods (about 65 KB and 5 ms of cold start). The OpenAPI document converts either.
 *
 * Views. The answers' schemas (`…View`, in each area's schemas.ts) are only read by the
 * tooling, through the handlers' `ROUTE_DOCS:` statements, which the bundles drop. They stay
 * classic zod, built on the models' shapes (`classic.object(model.shape).pick(…)`), and each
 * call that builds one carries a `@__PURE__` annotation: a bundle that holds a schemas module
 * for its request schemas leaves its views, and classic zod, out. A view without the mark
 * would bring classic zod back into every bundle of its area (test/infra/bundling.test.ts).
 */

/**
 * A model (a zod/mini object) as a classic object with the same fields, to build a view on
 * (`.pick`, `.omit`, `.extend`). Free of side effects, so a call whose result is not used
 * leaves the bundle with its argument.
 */
// @__NO_SIDE_EFFECTS__
export function classicObject<Shape extends z.core.$ZodShape>(model: z.ZodMiniObject<Shape>): classic.ZodObject<Shape> {
  return classic.object(model.shape);
}

/** One field of a model, the very schema object, for a view that renames it (same reason as `classicObject`). */
// @__NO_SIDE_EFFECTS__
export function modelField<Shape extends z.core.$ZodShape, K extends keyof Shape>(model: z.ZodMiniObject<Shape>, key: K): Shape[K] {
  return model.shape[key];
}

/**
 * Field schemas shared by every resource (contract section 1): strings are trimmed and
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

export const nameField = requiredText(200);

export const emailField = z.pipe(
  z.string().check(z.trim(), z.toLowerCase(), z.maxLength(254, 'must be at most 254 characters'), z.superRefine(storableText)),
  z.email('must be a valid e-mail address'),
);

export const uuidField = z.uuid('must be a UUID');

/** Path parameters of `/{id}` routes: a non-UUID id is a 400. */
export const idPath = z.object({ id: uuidField });

export const httpsUrlField = z.url({ protocol: /^https$/, message: 'must be an https URL' }).check(z.maxLength(2048, 'must be at most 2048 characters'));

/**
 * A query-string integer: digits only (no sign, decimals, exponent or blanks, which
 * `Number()` would quietly accept), so the number is an integer; then range-checked (the
 * upper bound also refuses digits past the safe-integer range).
 */
export const queryInteger = (min: number, max: number, message: string) =>
  z.pipe(z.pipe(z.string().check(z.regex(/^[0-9]+$/, message)), z.transform(Number)), z.number().check(z.gte(min, message), z.lte(max, message)));

/**
 * `queryInteger` in classic zod, for the query schemas that are still classic
 * (lib/suppliers/queries.ts): the same rule and messages.
 */
export const integerParam = (min: number, max: number, message: string) =>
  classic
    .string()
    .regex(/^[0-9]+$/, message)
    .transform(Number)
    .pipe(classic.number().min(min, message).max(max, message));

/**
 * A `from`/`to` bound of a time-ordered list (the stock history, the audit trail), both
 * inclusive: a business day `YYYY-MM-DD` (the whole day in the business time zone) or an ISO
 * 8601 date-time with its offset.
 */
const isoDateTime = z.iso.datetime({ offset: true });
export const timeBound = z.string().check(
  z.refine((value) => isDay(value) || isoDateTime.safeParse(value).success, 'must be a day (YYYY-MM-DD, in the business time zone) or an ISO 8601 date-time'),
);
