import type { components } from './schema';

/** One invalid field of a 400 `validation` problem (a dotted path, and why), as the document defines it. */
export type FieldError = components['schemas']['FieldError'];

/**
 * The RFC 9457 problem document every error of the API carries (`application/problem+json`,
 * contract.md section 2), as the document defines it: `errors` on 400 `validation` problems only.
 */
export type Problem = components['schemas']['ValidationProblem'];

/** The base of every problem `type` the API answers: `${PROBLEM_TYPE_BASE}conflict` and so on. */
export const PROBLEM_TYPE_BASE = 'https://problems.backoffice.dev/';

/**
 * A non-2xx answer, as an error: the problem document's fields, plus `retryAfter` (seconds,
 * from `Retry-After` on 429 and 503) and the response itself for any other header. An answer
 * that is not a problem document (a proxy's error page, say) becomes one with the type
 * `about:blank`, as RFC 9457 §4.2.1 reads a missing type.
 */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly requestId: string | undefined;
  readonly retryAfter: number | undefined;
  readonly response: Response;

  constructor(problem: Omit<Problem, 'requestId'> & { requestId?: string }, response: Response) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`);
    this.type = problem.type;
    this.title = problem.title;
    this.status = problem.status;
    this.detail = problem.detail;
    this.errors = problem.errors;
    this.requestId = problem.requestId;
    const retryAfter = response.headers.get('Retry-After');
    this.retryAfter = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : undefined;
    this.response = response;
  }
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as Problem).type === 'string' &&
  typeof (body as Problem).title === 'string' &&
  typeof (body as Problem).status === 'number' &&
  typeof (body as Problem).detail === 'string';

/** The ProblemError of a non-2xx answer, whatever its body. */
export function problemOf(body: unknown, response: Response): ProblemError {
  if (isProblem(body)) return new ProblemError(body, response);
  const title = response.statusText || `HTTP ${response.status}`;
  return new ProblemError({ type: 'about:blank', title, status: response.status, detail: `${response.status} ${title}, without a problem document` }, response);
}

/** What an openapi-fetch call resolves to: `data` on a 2xx answer, the parsed body as `error` otherwise. */
export interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The data type of a call's 2xx answer: the member of openapi-fetch's result union without an error. */
export type DataOf<Result extends CallResult> = Extract<Result, { error?: never }>['data'];

/**
 * The data of a call, or a thrown ProblemError: `const me = await unwrap(api.GET('/auth/me'))`.
 * A 2xx answer without a body (204) gives `undefined`.
 */
export async function unwrap<Result extends CallResult>(call: Promise<Result> | Result): Promise<DataOf<Result>> {
  const result = await call;
  if (result.response.ok) return result.data;
  throw problemOf(result.error, result.response);
}
