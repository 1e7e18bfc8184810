import { ProblemError } from '@backoffice/client';

/** A failed request as the console tells it: the problem document, or being offline. */
export type Failure =
  | {
      kind: 'problem';
      status: number;
      title: string;
      detail: string;
      retryAfter: number | undefined;
      fields: Record<string, string>;
      requestId: string | undefined;
    }
  | { kind: 'offline' }
  | { kind: 'unknown'; message: string };

/** Turns whatever a call threw into a Failure; each field error keyed by its path (`document`, `address.cep`). */
export function failureOf(error: unknown): Failure {
  if (error instanceof ProblemError) {
    const fields: Record<string, string> = {};
    for (const field of error.errors ?? []) fields[field.field] ??= field.message;
    return {
      kind: 'problem',
      status: error.status,
      title: error.title,
      detail: error.detail,
      retryAfter: error.retryAfter,
      fields,
      requestId: error.requestId,
    };
  }
  // fetch rejects with a TypeError when the network is down or the server unreachable.
  if (error instanceof TypeError || (typeof navigator !== 'undefined' && !navigator.onLine)) return { kind: 'offline' };
  return { kind: 'unknown', message: error instanceof Error ? error.message : String(error) };
}

export const isProblem = (error: unknown, status: number) => error instanceof ProblemError && error.status === status;

/** The server's message for each invalid field of a 400 `validation` problem; empty for anything else. */
export function fieldErrors(error: unknown): Record<string, string> {
  const failure = error ? failureOf(error) : undefined;
  return failure?.kind === 'problem' ? failure.fields : {};
}
