import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * The service's business and security metrics, in CloudWatch's Embedded Metric Format
 * (Powertools Metrics): a structured log line per data point, which CloudWatch turns into a
 * metric with no API call and no extra latency. The namespace is the stack's
 * (`POWERTOOLS_METRICS_NAMESPACE`, set by infra/constructs/functions.ts); every metric also
 * has Powertools' `service` dimension.
 *
 * Each metric has at most one dimension of its own, from a closed set of values (a route such
 * as `POST /auth/login`, an outcome), so the number of custom metrics stays bounded: never a tenant or a user id.
 * The dashboard and the alarms (infra/constructs/observability.ts) read this catalogue, so a
 * renamed metric cannot leave them watching nothing.
 */
export const METRICS = {
  /** A sign-in attempt, by outcome (the password step; the second step of a sign-in with a second factor). */
  logins: { name: 'Logins', dimension: 'outcome' },
  /** A request refused with 429, by route (route limits, login and second-factor attempt limits). */
  throttled: { name: 'ThrottledRequests', dimension: 'route' },
  /** A refresh token presented again after its rotation: the session is revoked (lib/auth/sessions). */
  refreshReuse: { name: 'RefreshTokenReuse', dimension: null },
  /** Sessions ended by a person or by the service, by reason (see `SessionEndReason`). */
  sessionsRevoked: { name: 'SessionsRevoked', dimension: 'reason' },
  /** An inventory movement recorded, by type. */
  movements: { name: 'InventoryMovements', dimension: 'type' },
  /** The stored first answer of an Idempotency-Key sent again, by route. */
  idempotentReplays: { name: 'IdempotentReplays', dimension: 'route' },
  /** A request answered 5xx by the function's problem handler, by route. */
  serverErrors: { name: 'ServerErrors', dimension: 'route' },
  /**
   * A webhook delivery attempt, by outcome: `succeeded` (2xx), `failed` (another status) or
   * `no_answer` (timeout, refused connection, target refused). Per endpoint, the delivery
   * function's log lines feed a Contributor Insights rule instead: an endpoint id is no dimension.
   */
  webhookAttempts: { name: 'WebhookAttempts', dimension: 'outcome' },
  /** Drift the scheduled integrity check found, by invariant (lib/integrity); 0 on a clean run, so the graph shows each run. */
  integrityDrift: { name: 'IntegrityDrift', dimension: null },
} as const;

export type WebhookAttemptOutcome = 'succeeded' | 'failed' | 'no_answer';

export type LoginOutcome = 'success' | 'second_factor_required' | 'failure' | 'second_factor_failure';

/**
 * Why sessions ended. The first four and `evicted` (the cap of sessions per user) count
 * sessions; the user-wide ones (every session of a user ends at once when its credential
 * version moves on, whose number is not read) count one per user.
 */
export type SessionEndReason =
  | 'logout'
  | 'revoked'
  | 'others_revoked'
  | 'refresh_reuse'
  | 'evicted'
  | 'password_changed'
  | 'password_reset'
  | 'second_factor_changed'
  | 'second_factor_reset';

/** The dimension value of the sign-in failures the login-failure alarm counts. */
export const LOGIN_FAILURE: LoginOutcome = 'failure';

/** The Powertools service name: the `service` dimension of every metric. */
export const METRICS_SERVICE = 'backoffice-api';

let metrics: Metrics | undefined;

/**
 * One data point, flushed at once as its own EMF line (a single metric): nothing to publish
 * at the end of an invocation, so no flush middleware and no "no metrics" warning on the
 * many invocations that record none. Locally the emulator sets POWERTOOLS_METRICS_DISABLED.
 */
function record(metric: { name: string; dimension: string | null }, dimensionValue: string | null, value = 1): void {
  metrics ??= new Metrics({ serviceName: METRICS_SERVICE });
  const point = metrics.singleMetric();
  if (metric.dimension && dimensionValue !== null) point.addDimension(metric.dimension, dimensionValue);
  point.addMetric(metric.name, MetricUnit.Count, value);
}

export const countLogin = (outcome: LoginOutcome): void => record(METRICS.logins, outcome);
export const countThrottled = (route: string): void => record(METRICS.throttled, route);
export const countRefreshReuse = (): void => record(METRICS.refreshReuse, null);
export const countSessionsRevoked = (reason: SessionEndReason, sessions = 1): void => {
  if (sessions > 0) record(METRICS.sessionsRevoked, reason, sessions);
};
export const countMovement = (type: string): void => record(METRICS.movements, type);
export const countIdempotentReplay = (route: string): void => record(METRICS.idempotentReplays, route);
export const countServerError = (route: string): void => record(METRICS.serverErrors, route);
export const countWebhookAttempt = (outcome: WebhookAttemptOutcome): void => record(METRICS.webhookAttempts, outcome);
export const countIntegrityDrift = (drift: number): void => record(METRICS.integrityDrift, null, drift);
