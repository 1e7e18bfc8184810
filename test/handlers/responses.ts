import type { APIGatewayProxyResult } from 'aws-lambda';
import { ALLOWED_ORIGIN } from '../../tools/events';

/**
 * The headers every HTTP function answers with, so each test can assert a whole response
 * without repeating them.
 */

/** helmet-style headers of @middy/http-security-headers for a JSON API. */
export const SECURITY_HEADERS = {
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Permitted-Cross-Domain-Policies': 'none',
} as const;

/** CORS headers for a request from the allowed origin. */
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': ALLOWED_ORIGIN,
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Expose-Headers': 'Idempotent-Replayed, Link, Coverage-Figures-Date, Coverage-Stale, ETag',
} as const;

/** CORS headers when the Origin is absent or not allowed: no origin is echoed. */
export const NO_ORIGIN_CORS_HEADERS = {
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Expose-Headers': 'Idempotent-Replayed, Link, Coverage-Figures-Date, Coverage-Stale, ETag',
} as const;

export function jsonHeaders(cors: Record<string, string> = CORS_HEADERS): Record<string, string> {
  return { 'Cache-Control': 'no-store', 'Content-Type': 'application/json', ...cors, ...SECURITY_HEADERS };
}

export function problemHeaders(extra: Record<string, string> = {}, cors: Record<string, string> = CORS_HEADERS): Record<string, string> {
  return { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store', ...extra, ...cors, ...SECURITY_HEADERS };
}

export interface ExpectedProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: { field: string; message: string }[];
  requestId: string;
}

/** An RFC 9457 body of this service; `type` is the short name after the base URI. */
export function problem(type: string, title: string, status: number, detail: string, requestId: string, errors?: ExpectedProblem['errors']): ExpectedProblem {
  return { type: `https://problems.backoffice.dev/${type}`, title, status, detail, ...(errors ? { errors } : {}), requestId };
}

/** The result with its body parsed, to compare with toEqual in one go. */
export function parsed(result: APIGatewayProxyResult): Omit<APIGatewayProxyResult, 'body'> & { body: unknown } {
  return { ...result, body: result.body === '' ? '' : (JSON.parse(result.body) as unknown) };
}
