/**
 * The parts of OpenAPI 3.1 this service's document uses, typed just enough for the builder,
 * the contract validator and the tests to read it without casts. Schemas are JSON Schema
 * 2020-12 objects as zod writes them.
 */
import type { RouteKeyAccess } from '../../lib/domain/key-scopes';

export type JsonSchema = { [keyword: string]: unknown };

export interface ReferenceObject {
  $ref: string;
  /** OpenAPI 3.1 lets a reference override the description of what it points to. */
  description?: string;
}

export interface MediaTypeObject {
  schema: JsonSchema;
  example?: unknown;
}

export interface HeaderObject {
  description: string;
  schema: JsonSchema;
}

/** What an API key needs to call an operation (`x-api-key-scope`): the route's `apiKey` in the manifest. */
export type ApiKeyScopeExtension = Exclude<RouteKeyAccess, false>;

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | ReferenceObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface RequestBodyObject {
  required: boolean;
  content: Record<string, MediaTypeObject>;
}

/** One of the manifest's rate limits, as an entry of the `x-rate-limit` extension of an operation (each limit its own counter). */
export interface RateLimitExtension {
  per: 'ip' | 'user' | 'email' | 'email-and-ip';
  limit: number;
  windowSeconds: number;
  counts: 'requests' | 'attempts' | 'searches' | 'full-reads';
  /** Operations that share one counter name it. */
  scope?: string;
}

export interface OperationObject {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject | ReferenceObject>;
  'x-rate-limit'?: RateLimitExtension[];
  /** The audit actions a writing operation records (one entry per successful request). */
  'x-audit-actions'?: readonly string[];
  /** A protected operation an API key may call: the scope it needs (absent: the session cookie only). */
  'x-api-key-scope'?: ApiKeyScopeExtension;
}

export type HttpVerb = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type PathItemObject = Partial<Record<HttpVerb, OperationObject>>;

export interface ServerObject {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; description?: string }>;
}

/** The session cookies: OpenAPI's `apiKey` type, which names any credential in a header, query or cookie. */
export interface CookieSecurityScheme {
  type: 'apiKey';
  in: 'cookie';
  name: string;
  description: string;
}

/** The API keys of lib/api-keys: `Authorization: Bearer <key>`. */
export interface BearerSecurityScheme {
  type: 'http';
  scheme: 'bearer';
  bearerFormat: string;
  description: string;
}

export type SecuritySchemeObject = CookieSecurityScheme | BearerSecurityScheme;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; contact?: { name?: string; url?: string; email?: string } };
  servers: ServerObject[];
  tags: { name: string; description: string }[];
  paths: Record<string, PathItemObject>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
    headers: Record<string, HeaderObject>;
    securitySchemes: Record<string, SecuritySchemeObject>;
  };
}
