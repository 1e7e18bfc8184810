import type { APIGatewayProxyResult } from 'aws-lambda';
import { AppError, ServiceUnavailable, type FieldError } from '../errors';

export const PROBLEM_TYPE_BASE = 'https://problems.backoffice.dev/';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** An RFC 9457 problem document as this service writes it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldError[];
  requestId: string;
}

/** AWS SDK error names that mean "the store is busy or down", not "your request is wrong". */
const UNAVAILABLE_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'TransactionConflictException',
  'TransactionInProgressException',
]);

/** Transaction cancellation reasons that mean "busy, try again", not "your request is wrong". */
const RETRYABLE_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'TransactionConflict']);

function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_ERRORS.has(error.name)) return true;
  const meta = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  if (meta?.httpStatusCode !== undefined && meta.httpStatusCode >= 500) return true;
  if (error.name === 'TransactionCanceledException') {
    const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
    return reasons.some((reason) => reason.Code !== undefined && RETRYABLE_CANCELLATIONS.has(reason.Code));
  }
  return false;
}

/**
 * Turns any error into the AppError the client sees. Unknown errors become a bare 500
 * whose body carries no internals; a busy store becomes 503 with Retry-After.
 */
export function classify(error: unknown): { appError: AppError | undefined; status: number } {
  if (error instanceof AppError) return { appError: error, status: error.status };
  if (isStoreUnavailable(error)) {
    const unavailable = new ServiceUnavailable(1);
    return { appError: unavailable, status: unavailable.status };
  }
  return { appError: undefined, status: 500 };
}

export function problemFor(error: unknown, requestId: string): { problem: Problem; headers: Record<string, string> } {
  const { appError } = classify(error);
  if (!appError) {
    return {
      problem: {
        type: `${PROBLEM_TYPE_BASE}internal`,
        title: 'Internal server error',
        status: 500,
        detail: 'An unexpected error occurred',
        requestId,
      },
      headers: {},
    };
  }
  const problem: Problem = {
    type: `${PROBLEM_TYPE_BASE}${appError.type}`,
    title: appError.title,
    status: appError.status,
    detail: appError.message,
    requestId,
  };
  if ('errors' in appError && Array.isArray(appError.errors)) problem.errors = appError.errors as FieldError[];
  return { problem, headers: appError.headers };
}

/** The whole HTTP response of a problem (gateway responses build the same body). */
export function problemResponse(error: unknown, requestId: string): APIGatewayProxyResult {
  const { problem, headers } = problemFor(error, requestId);
  return {
    statusCode: problem.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers },
    body: JSON.stringify(problem),
  };
}
