/**
 * The problem document every error answers with: only the OpenAPI document needs it as a
 * schema (the handlers' own response bodies are in their specs, see lib/http/views.ts).
 */
import * as z from 'zod';

/** One entry of a validation problem's `errors`. */
export const fieldErrorView = z.object({ field: z.string(), message: z.string() });

/** The RFC 9457 problem document every error carries (contract section 2, `lib/http/problem.ts`). */
export const problemView = z.object({
  type: z.url(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  errors: z.array(fieldErrorView).optional(),
  requestId: z.string(),
});
