/**
 * The parts of OpenAPI 3.1 this service's document uses, typed just enough for the builder,
 * the contract validator and the tests to read it without casts. Schemas are JSON Schema
 * 2020-12 objects as zod writes them.
 */

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
}

export type HttpVerb = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type PathItemObject = Partial<Record<HttpVerb, OperationObject>>;

export interface ServerObject {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; description?: string }>;
}

export interface SecuritySchemeObject {
  type: 'apiKey';
  in: 'cookie';
  name: string;
  description: string;
}

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
