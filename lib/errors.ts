/**
 * The typed errors of the service. Domain code throws these; the HTTP error handler
 * (`lib/http/problem.ts`) maps them to RFC 9457 problem documents in one table, keyed by
 * class, never by a `name` string.
 */

export interface FieldError {
  field: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
  abstract readonly type: string;
  abstract readonly title: string;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string> = {};
}

export class ValidationError extends AppError {
  readonly status = 400;
  readonly type = 'validation';
  readonly title = 'Invalid request';
  constructor(
    readonly errors: FieldError[],
    detail?: string,
  ) {
    super(detail ?? errors.map((error) => (error.field ? `${error.field}: ${error.message}` : error.message)).join('; '));
  }

  static of(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}

export class BadRequest extends AppError {
  readonly status = 400;
  readonly type = 'bad-request';
  readonly title = 'Bad request';
}

export class Unauthorized extends AppError {
  readonly status = 401;
  readonly type = 'unauthorized';
  readonly title = 'Unauthorized';
  constructor(detail = 'Authentication is required or has failed') {
    super(detail);
  }
}

export class Forbidden extends AppError {
  readonly status = 403;
  readonly type = 'forbidden';
  readonly title = 'Forbidden';
  constructor(detail = 'You are not allowed to do this') {
    super(detail);
  }
}

/** The tenant requires a second factor of the caller, who has none yet: only enrolment is open. */
export class MfaEnrolmentRequired extends AppError {
  readonly status = 403;
  readonly type = 'mfa-enrolment-required';
  readonly title = 'Second factor required';
  constructor() {
    super('This tenant requires a second factor: enrol one with POST /auth/mfa/totp and POST /auth/mfa/totp/confirm before anything else');
  }
}

export class NotFound extends AppError {
  readonly status = 404;
  readonly type = 'not-found';
  readonly title = 'Not found';
  constructor(detail = 'No such resource') {
    super(detail);
  }
}

export class Conflict extends AppError {
  readonly status = 409;
  readonly type = 'conflict';
  readonly title = 'Conflict';
}

/** An `If-Match` names a version the resource no longer has: someone changed it since it was read. */
export class PreconditionFailed extends AppError {
  readonly status = 412;
  readonly type = 'precondition-failed';
  readonly title = 'Precondition failed';
}

/** The same Idempotency-Key is being used by a request that has not finished yet. */
export class IdempotencyKeyInUse extends AppError {
  readonly status = 409;
  readonly type = 'idempotency-key-in-use';
  readonly title = 'Idempotency key in use';
  constructor(retryAfterSeconds = 1) {
    super('A request with this Idempotency-Key is still being processed; retry after it finishes');
    this.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}

/** The same Idempotency-Key was first used for another request (method, path or body). */
export class IdempotencyKeyReused extends AppError {
  readonly status = 422;
  readonly type = 'idempotency-key-reused';
  readonly title = 'Idempotency key reused';
  constructor() {
    super('This Idempotency-Key was used for a different request; a retry must repeat the method, path and body exactly');
  }
}

export class PayloadTooLarge extends AppError {
  readonly status = 413;
  readonly type = 'payload-too-large';
  readonly title = 'Payload too large';
}

export class UnsupportedMediaType extends AppError {
  readonly status = 415;
  readonly type = 'unsupported-media-type';
  readonly title = 'Unsupported media type';
}

export class TooManyRequests extends AppError {
  readonly status = 429;
  readonly type = 'rate-limited';
  readonly title = 'Too many requests';
  constructor(retryAfterSeconds: number, detail = 'Rate limit reached, try again later') {
    super(detail);
    this.headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  }
}

export class ServiceUnavailable extends AppError {
  readonly status = 503;
  readonly type = 'unavailable';
  readonly title = 'Service unavailable';
  constructor(retryAfterSeconds = 1, detail = 'The service is busy, try again shortly') {
    super(detail);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}
