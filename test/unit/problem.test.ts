import {
  InternalServerError,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  TransactionCanceledException,
  type CancellationReason,
} from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  BadRequest,
  Conflict,
  Forbidden,
  NotFound,
  PayloadTooLarge,
  ServiceUnavailable,
  TooManyRequests,
  Unauthorized,
  UnsupportedMediaType,
  ValidationError,
  type AppError,
} from '../../lib/errors';
import { classify, problemResponse } from '../../lib/http/problem';

const REQUEST_ID = 'req-7f3a';
const PROBLEM_HEADERS = { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' };

const parse = (body: string): unknown => JSON.parse(body);

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: { httpStatusCode: 400 },
    CancellationReasons: codes.map((Code): CancellationReason => (Code === 'None' ? { Code } : { Code, Message: `${Code} happened` })),
  });

const named = (name: string, message = 'Rate of requests exceeds the allowed throughput.') => Object.assign(new Error(message), { name });

describe('problem responses of the typed errors', () => {
  it.each<[string, AppError, number, string, string, string]>([
    ['BadRequest', new BadRequest('The request body is not valid JSON'), 400, 'bad-request', 'Bad request', 'The request body is not valid JSON'],
    ['Unauthorized', new Unauthorized(), 401, 'unauthorized', 'Unauthorized', 'Authentication is required or has failed'],
    ['Forbidden', new Forbidden(), 403, 'forbidden', 'Forbidden', 'You are not allowed to do this'],
    ['NotFound', new NotFound(), 404, 'not-found', 'Not found', 'No such resource'],
    ['Conflict', new Conflict("A tenant named 'acme' already exists"), 409, 'conflict', 'Conflict', "A tenant named 'acme' already exists"],
    ['PayloadTooLarge', new PayloadTooLarge('Too big'), 413, 'payload-too-large', 'Payload too large', 'Too big'],
    ['UnsupportedMediaType', new UnsupportedMediaType('Not JSON'), 415, 'unsupported-media-type', 'Unsupported media type', 'Not JSON'],
  ])('maps %s to %i %s', (_name, error, status, type, title, detail) => {
    const response = problemResponse(error, REQUEST_ID);

    expect(response).toEqual({ statusCode: status, headers: PROBLEM_HEADERS, body: expect.any(String) as string });
    expect(parse(response.body)).toEqual({ type: `https://problems.backoffice.dev/${type}`, title, status, detail, requestId: REQUEST_ID });
  });

  it('maps ValidationError to 400 with the field errors', () => {
    const error = new ValidationError([
      { field: 'name', message: 'must not be empty' },
      { field: 'document', message: 'check digits do not match' },
    ]);

    const response = problemResponse(error, REQUEST_ID);

    expect(response.statusCode).toBe(400);
    expect(response.headers).toEqual(PROBLEM_HEADERS);
    expect(parse(response.body)).toEqual({
      type: 'https://problems.backoffice.dev/validation',
      title: 'Invalid request',
      status: 400,
      detail: 'name: must not be empty; document: check digits do not match',
      errors: [
        { field: 'name', message: 'must not be empty' },
        { field: 'document', message: 'check digits do not match' },
      ],
      requestId: REQUEST_ID,
    });
  });

  it('maps TooManyRequests to 429 with Retry-After in whole seconds', () => {
    const response = problemResponse(new TooManyRequests(42.3), REQUEST_ID);

    expect(response.statusCode).toBe(429);
    expect(response.headers).toEqual({ ...PROBLEM_HEADERS, 'Retry-After': '43' });
    expect(parse(response.body)).toEqual({
      type: 'https://problems.backoffice.dev/rate-limited',
      title: 'Too many requests',
      status: 429,
      detail: 'Rate limit reached, try again later',
      requestId: REQUEST_ID,
    });
  });

  it('never sends Retry-After below one second', () => {
    expect(problemResponse(new TooManyRequests(0), REQUEST_ID).headers).toEqual({ ...PROBLEM_HEADERS, 'Retry-After': '1' });
  });

  it('maps ServiceUnavailable to 503 with Retry-After', () => {
    const response = problemResponse(new ServiceUnavailable(5), REQUEST_ID);

    expect(response.statusCode).toBe(503);
    expect(response.headers).toEqual({ ...PROBLEM_HEADERS, 'Retry-After': '5' });
    expect(parse(response.body)).toEqual({
      type: 'https://problems.backoffice.dev/unavailable',
      title: 'Service unavailable',
      status: 503,
      detail: 'The service is busy, try again shortly',
      requestId: REQUEST_ID,
    });
  });
});

describe('problem responses of unexpected errors', () => {
  const internal = {
    type: 'https://problems.backoffice.dev/internal',
    title: 'Internal server error',
    status: 500,
    detail: 'An unexpected error occurred',
    requestId: REQUEST_ID,
  };

  it('maps an unknown Error to a bare 500 that carries no internals', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'passwordHash') at /var/task/index.mjs:12");

    const response = problemResponse(error, REQUEST_ID);

    expect(response).toEqual({ statusCode: 500, headers: PROBLEM_HEADERS, body: JSON.stringify(internal) });
    expect(response.body).not.toMatch(/passwordHash|TypeError|var\/task|stack/);
  });

  it.each([
    ['a string', 'secret connection string'],
    ['undefined', undefined],
    ['a plain object', { message: 'internal detail', stack: 'at secret.js:1' }],
  ])('maps a thrown %s to the same 500', (_label, thrown) => {
    expect(problemResponse(thrown, REQUEST_ID)).toEqual({ statusCode: 500, headers: PROBLEM_HEADERS, body: JSON.stringify(internal) });
  });

  it('maps a transaction cancelled by conditions alone to 500 (repositories translate those they expect)', () => {
    expect(classify(cancelled('None', 'ConditionalCheckFailed'))).toEqual({ appError: undefined, status: 500 });
  });
});

describe('problem responses of a busy or failing store', () => {
  const unavailable = {
    type: 'https://problems.backoffice.dev/unavailable',
    title: 'Service unavailable',
    status: 503,
    detail: 'The service is busy, try again shortly',
    requestId: REQUEST_ID,
  };

  it.each<[string, unknown]>([
    [
      'ProvisionedThroughputExceededException',
      new ProvisionedThroughputExceededException({ message: 'Throughput exceeded', $metadata: { httpStatusCode: 400 } }),
    ],
    ['ThrottlingException', named('ThrottlingException')],
    ['RequestLimitExceeded', new RequestLimitExceeded({ message: 'Account limit', $metadata: { httpStatusCode: 400 } })],
    ['InternalServerError', new InternalServerError({ message: 'Internal error', $metadata: { httpStatusCode: 500 } })],
    ['TimeoutError', named('TimeoutError', 'socket hang up')],
    ['any error with an HTTP 5xx status', Object.assign(new Error('Bad gateway'), { name: 'UnknownError', $metadata: { httpStatusCode: 502 } })],
    ['a transaction cancelled by ThrottlingError', cancelled('None', 'ThrottlingError')],
    ['a transaction cancelled by ProvisionedThroughputExceeded', cancelled('ProvisionedThroughputExceeded', 'None')],
  ])('maps %s to 503 with Retry-After and no internals', (_label, error) => {
    const response = problemResponse(error, REQUEST_ID);

    expect(response).toEqual({ statusCode: 503, headers: { ...PROBLEM_HEADERS, 'Retry-After': '1' }, body: JSON.stringify(unavailable) });
  });

  // lib/db/conditions.ts documents that a transaction cancelled by a conflict with another
  // transaction "must propagate and become a 503", but problem.ts maps only throttling
  // reasons: a TransactionConflict answers 500.
  it('maps a transaction cancelled by TransactionConflict to 503', () => {
    expect(classify(cancelled('None', 'TransactionConflict')).status).toBe(503);
  });
});
