import type * as z from 'zod';
import type { RouteHandler } from './handler';

/** Error statuses a route can answer (docs/api.md, "Errors"). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 429 | 500 | 503;

/** What a success response does to the session cookies (documented as Set-Cookie). */
export type CookieEffect = 'issued' | 'cleared' | 'cleared-if-current';

/**
 * Everything about a route that is neither the manifest's nor what the handler validates:
 * what it answers, and the words and the sample request the tooling derives from it. The
 * OpenAPI document (tools/openapi), the sample events of `sam local invoke`, the default
 * benchmark scenario and the route table of docs/routes.md all read it; nothing of it is restated
 * elsewhere.
 *
 * It is stated in the handler's file, in a statement labelled `ROUTE_DOCS:`, which the
 * bundles drop (docs/architecture.md, "Cold-start conventions").
 */
export interface RouteDocs {
  /**
   * PATCH bodies refine "at least one field", which JSON Schema cannot learn from the
   * refinement; the document says it as `minProperties: 1`.
   */
  atLeastOneField?: boolean;
  /** The success answer: 204 has no body; any other status the body schema (the very object). */
  success: { status: 200 | 201 | 204; description: string; body?: z.core.$ZodType; cookies?: CookieEffect };
  /**
   * The statuses the route's own logic answers, each with when. Those of the handler chain
   * and the gateway (validation, authentication, CSRF, body limits, rate limits, store
   * failures) are added by the document builder.
   */
  errors?: Partial<Record<ErrorStatus, string>>;
  /** A list answering an array page, with the next page in a `Link` header (lib/pages). */
  linkPages?: boolean;
  /** Request headers the route reads beyond those every route takes (an `If-Match`). */
  requestHeaders?: Record<string, { description: string; required?: boolean; schema: { type: 'string'; examples?: string[] } }>;
  /** Headers of the success answer beyond those the document builder adds (Link, cookies, rate limits, replays). */
  responseHeaders?: Record<string, { description: string; schema: { type: 'string'; format?: string; enum?: string[] } }>;
  /** Longer prose than the manifest's summary, where the rules need saying. */
  description?: string;
  /** A public route that reads the refresh cookie instead of the access cookie. */
  refreshCookie?: boolean;
  /** Who may call it, for the route table of docs/routes.md; `public`, `refresh cookie` or `session` by default. */
  access?: string;
  /** The route table's last column (docs/routes.md): the answer and the rules in a line. */
  notes: string;
  /** A typical request (the sample event, the default benchmark scenario): what its schemas accept. */
  example?: {
    body?: unknown;
    query?: Record<string, string>;
    path?: Record<string, string>;
    /** A Cookie header (the refresh route reads its cookie itself). */
    cookie?: string;
    /** The caller is a platform administrator. */
    platformAdmin?: boolean;
  };
}

/** A handler whose file stated its docs (every handler, where the sources run). */
export type DescribedHandler = RouteHandler & { readonly docs: RouteDocs };

/**
 * Attaches a route's docs to its handler. Call it only as `ROUTE_DOCS: describeRoute(...)`
 * (`npm run lint` enforces it), so the bundles leave it and everything it alone imports out.
 */
export function describeRoute(handler: RouteHandler, docs: RouteDocs): void {
  Object.assign(handler, { docs });
}

export function isDescribed(handler: RouteHandler): handler is DescribedHandler {
  return 'docs' in handler;
}
