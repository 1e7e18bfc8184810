import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE } from './problem';

/**
 * The errors API Gateway answers itself, before or instead of a function: the same problem
 * documents as the functions write, with CORS headers so a browser client can read them.
 * The CDK stack configures these as gateway responses; the local emulator answers with them.
 */
export interface GatewayResponse {
  /** API Gateway ResponseType. */
  type: 'UNAUTHORIZED' | 'ACCESS_DENIED' | 'MISSING_AUTHENTICATION_TOKEN' | 'AUTHORIZER_FAILURE' | 'THROTTLED' | 'REQUEST_TOO_LARGE' | 'DEFAULT_4XX' | 'DEFAULT_5XX';
  status: number;
  problemType: string;
  title: string;
  detail: string;
  headers?: Record<string, string>;
}

export const gatewayResponses: readonly GatewayResponse[] = [
  { type: 'UNAUTHORIZED', status: 401, problemType: 'unauthorized', title: 'Unauthorized', detail: 'Authentication is required or has failed' },
  { type: 'ACCESS_DENIED', status: 403, problemType: 'forbidden', title: 'Forbidden', detail: 'You are not allowed to do this' },
  // REST APIs answer an unknown path or method with this type; it is a 404 for clients.
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, problemType: 'not-found', title: 'Not found', detail: 'No such route' },
  // The authorizer could not reach the store: retryable, like the functions' 503.
  { type: 'AUTHORIZER_FAILURE', status: 503, problemType: 'unavailable', title: 'Service unavailable', detail: 'The service is busy, try again shortly', headers: { 'Retry-After': '1' } },
  { type: 'THROTTLED', status: 429, problemType: 'rate-limited', title: 'Too many requests', detail: 'Rate limit reached, try again later', headers: { 'Retry-After': '1' } },
  { type: 'REQUEST_TOO_LARGE', status: 413, problemType: 'payload-too-large', title: 'Payload too large', detail: 'The request is too large' },
  { type: 'DEFAULT_4XX', status: 400, problemType: 'bad-request', title: 'Bad request', detail: 'The request was refused by the gateway' },
  { type: 'DEFAULT_5XX', status: 502, problemType: 'internal', title: 'Internal server error', detail: 'An unexpected error occurred' },
];

export function gatewayResponse(type: GatewayResponse['type']): GatewayResponse {
  const response = gatewayResponses.find((candidate) => candidate.type === type);
  if (!response) throw new Error(`Unknown gateway response ${type}`);
  return response;
}

/**
 * The problem body; `requestId` is `$context.requestId` in the API Gateway template and the
 * emulator's request id locally.
 */
export function gatewayProblemBody(response: GatewayResponse, requestId: string): string {
  return JSON.stringify({
    type: `${PROBLEM_TYPE_BASE}${response.problemType}`,
    title: response.title,
    status: response.status,
    detail: response.detail,
    requestId,
  });
}

export const GATEWAY_PROBLEM_CONTENT_TYPE = PROBLEM_CONTENT_TYPE;
