/**
 * The problem documents errors answer with: only the OpenAPI document needs them as schemas
 * (the handlers' own response bodies are in their specs, see lib/http/route-docs.ts).
 */
import * as z from 'zod';

/** One entry of a validation problem's `errors`. */
export const fieldErrorView = z.object({ field: z.string(), message: z.string() });

/** The RFC 9457 problem document every error carries (docs/api.md, "Errors"; `lib/http/problem.ts`). */
export const problemView = z.object({
  type: z.url().meta({ examples: ['https://problems.backoffice.dev/not-found'] }),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  requestId: z.string(),
});

/**
 * A 400: a problem document that, when the request failed validation (type `validation`),
 * names each invalid field in `errors`; the only status whose problems carry it.
 */
export const validationProblemView = z.object({
  type: problemView.shape.type,
  title: problemView.shape.title,
  status: problemView.shape.status,
  detail: problemView.shape.detail,
  errors: z.array(fieldErrorView).optional().meta({ description: 'On `validation` problems: each invalid field (dotted path) and why.' }),
  requestId: problemView.shape.requestId,
});
