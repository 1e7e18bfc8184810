import type * as z from 'zod/mini';

/**
 * What a stored text field may hold ("text that is text"): no C0 or C1 control
 * characters, no bidirectional embedding, override or isolate characters (they make a name
 * display as something else: the "Trojan Source" class), no lone surrogates (they are not
 * Unicode scalar values and cannot be written as UTF-8), and no U+FFFD (the mark of bytes
 * that were lost in decoding somewhere before us).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/u;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
// With the `u` flag a surrogate range matches only surrogates that are not part of a pair.
const NOT_SCALAR = /[\uD800-\uDFFF\uFFFD]/u;

export const TEXT_MESSAGES = {
  control: 'must not contain control characters',
  bidi: 'must not contain bidirectional control characters (U+202A to U+202E, U+2066 to U+2069)',
  scalar: 'must be valid Unicode text (no lone surrogates or U+FFFD)',
} as const;

/**
 * Why `value` is not storable text, or undefined when it is. `controls: 'allowed'` lets C0
 * and C1 controls through (free-form settings values, where a newline or a tab is data).
 */
export function textProblem(value: string, controls: 'refused' | 'allowed' = 'refused'): string | undefined {
  if (NOT_SCALAR.test(value)) return TEXT_MESSAGES.scalar;
  if (BIDI_CONTROL.test(value)) return TEXT_MESSAGES.bidi;
  if (controls === 'refused' && CONTROL.test(value)) return TEXT_MESSAGES.control;
  return undefined;
}

/** Characters `textProblem` refuses in a name or any other required text (surrogates: lone ones). */
const NOT_TEXT = '\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069\\uD800-\\uDFFF\\uFFFD';

/**
 * A required text field (trimmed, then not empty, then `textProblem`'s rule) as a regular
 * expression (ECMA-262, `u` flag), for the OpenAPI document: blanks around it, none of the
 * refused characters inside, at least one character that is not blank.
 */
export const REQUIRED_TEXT_PATTERN = `^\\s*[^\\s${NOT_TEXT}](?:[^${NOT_TEXT}]*[^\\s${NOT_TEXT}])?\\s*$`;

/** zod refinement of a storable text field: `.check(z.superRefine(storableText))`, after any trimming. */
export function storableText(value: string, ctx: z.core.$RefinementCtx<string>): void {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}

/** What a header value may not bring into a stored record: `textProblem`'s characters, and the line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_STORABLE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u2028\u2029\uFFFD]|[\uD800-\uDFFF]/gu;

/**
 * A header value the client chose (the User-Agent) as a stored record keeps it: each
 * character the stored-text rule refuses (controls, bidirectional controls, lone surrogates,
 * U+FFFD) and each line or paragraph separator becomes `?`, so an entry of the audit trail or
 * a session can never show a forged line, and the value is cut to `max` characters (whole
 * code points). A request is never refused for its User-Agent.
 */
export function storedHeaderText(value: string, max: number): string {
  return [...value.replace(NOT_STORABLE, '?')].slice(0, max).join('');
}

/** `1 company`, `3 companies`: a count with its noun in the number it takes (`plural` defaults to `singular` + s). */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
