import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { type Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  type CfnInsightRule,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  LegendPosition,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tableDefinition } from '../../lib/db/table';
import { LOGIN_FAILURE, METRICS, METRICS_SERVICE } from '../../lib/metrics';

/** Every alarm looks at 5-minute windows and fires on the first bad one. */
const PERIOD = Duration.minutes(5);

/**
 * The namespace of the stack's own metrics: the functions' EMF metrics (lib/metrics.ts, through
 * POWERTOOLS_METRICS_NAMESPACE) and the log metric filters. Per stack, so a dev and a prod
 * stack in one account never add up.
 */
export function serviceMetricsNamespace(stack: Stack): string {
  // An area's function writes under its parent's (the deployed stack's) name, as every other does.
  return stack.nestedStackParent ? serviceMetricsNamespace(stack.nestedStackParent) : `Backoffice/${stack.stackName}`;
}

/**
 * Failed sign-ins (wrong password, unknown e-mail, suspended tenant) across the service in
 * 5 minutes that mean an attack rather than typos: the login throttle lets one e-mail and
 * address try 5 times in 15 minutes, so this many failures come from many addresses or many
 * e-mails at once, the shape of credential stuffing. A stage may set its own.
 */
export const DEFAULT_LOGIN_FAILURE_ALARM_THRESHOLD = 50;

/** Functions watched by one Errors alarm: a metric-math alarm takes at most 10 metrics. */
export const FUNCTIONS_PER_ERRORS_ALARM = 10;

/** The share of webhook attempts failing in 5 minutes (of at least 20) that raises the webhook failure-rate alarm. */
export const WEBHOOK_FAILURE_ALARM_PERCENT = 50;

/**
 * The line functions/auth/authorizer.ts logs (at ERROR) when authorization fails for a
 * reason other than a bad token: the store is unavailable, a bug. A test keeps the two in step.
 */
export const AUTHORIZER_FAILURE_LOG_MESSAGE = 'authorizer failed';

export interface ObservedFunction {
  /** What the function is, for the alarm description and the graph (`POST /auth/login`, `job sales-rollup`). */
  name: string;
  function: IFunction;
}

export interface ObservabilityProps {
  /** Every function whose Lambda `Errors` metric means a failure: the routes and the jobs. */
  functions: ObservedFunction[];
  /** The REQUEST authorizer and its log group (see `authorizerFailures`). */
  authorizer: { function: IFunction; logGroup: ILogGroup };
  /** The API stage, for its 5XXError metric. */
  apiStage: Stage;
  table: ITableV2;
  deadLetterQueue: IQueue;
  /** The webhook delivery's queues and its rule of failing endpoints (infra/constructs/webhooks.ts). */
  webhooks: { queue: IQueue; deadLetterQueue: IQueue; failingEndpoints: CfnInsightRule };
  /** The import worker's dead-letter queue (infra/constructs/imports.ts). */
  imports: { deadLetterQueue: IQueue };
  /** Notify an existing topic ... */
  alarmTopicArn?: string;
  /** ... or create one (optionally with an e-mail subscription); neither: alarms only change state. */
  createAlarmTopic: boolean;
  alarmEmail?: string;
  /** Failed sign-ins in 5 minutes that raise the login-failure alarm (default DEFAULT_LOGIN_FAILURE_ALARM_THRESHOLD). */
  loginFailureAlarmThreshold?: number;
}

/**
 * The alarms that say the service is failing, from day one:
 * - every function's `Errors` (an uncaught exception or a timeout; problem responses such as
 *   a 4xx or a handled 503 are answers, not errors), ten functions per alarm;
 * - the authorizer's genuine failures. Its `Errors` metric cannot be used: API Gateway's
 *   only way to answer 401 is an authorizer that throws "Unauthorized", so every expired
 *   access token counts as a Lambda error. The alarm counts its failure log line instead;
 *   timeouts and crashes there also surface as API 5XX (AUTHORIZER_FAILURE / 503);
 * - API Gateway 5XXError on the stage;
 * - DynamoDB read and write throttle events, of the table and of its indexes;
 * - any message in the jobs' or the webhook delivery's dead-letter queue, and most webhook
 *   attempts failing at once (WEBHOOK_FAILURE_ALARM_PERCENT);
 * - the security signals of the service's own metrics (lib/metrics.ts): a spike of failed
 *   sign-ins, and any refresh-token reuse (a stolen refresh token, or a client bug).
 * Missing data is "not breaching": no traffic is not an outage.
 *
 * And one dashboard, `<stack>-operations`: the API's traffic, the sign-ins, sessions and
 * security signals, throttling and 5xx by route, movements by type and idempotent replays.
 */
export class Observability extends Construct {
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  readonly alarmTopic?: ITopic;
  /** Only set when this construct created the topic. */
  readonly createdAlarmTopic?: Topic;

  constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);

    if (props.alarmTopicArn) {
      this.alarmTopic = Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn);
    } else if (props.createAlarmTopic) {
      // TLS-only publishing. Not KMS-encrypted: it carries alarm state changes only (name,
      // metric, threshold), and CloudWatch cannot publish to a topic under the AWS-managed
      // SNS key; a customer-managed key would cost $1/month for no protected data.
      const topic = new Topic(this, 'AlarmTopic', { displayName: 'Back-office API alarms', enforceSSL: true });
      if (props.alarmEmail) topic.addSubscription(new EmailSubscription(props.alarmEmail));
      this.alarmTopic = topic;
      this.createdAlarmTopic = topic;
    }

    if (!this.alarmTopic) {
      Validations.of(this).acknowledge({
        id: 'cdk-validator-cfnguard::cloudwatch_alarm_action_check',
        reason:
          'This stage notifies nobody by its own configuration (no alarmTopicArn, createAlarmTopic false: the dev default): its alarms change state in the console only. A stage with a topic gives every alarm an alarm and an OK action, and this acknowledgment is not made.',
      });
    }

    // Ten functions per alarm, the most a metric-math alarm takes: one alarm per function cost a
    // CloudFormation resource each, and a stack holds at most 500 (docs/decisions.md, "Least privilege per function").
    for (let start = 0; start < props.functions.length; start += FUNCTIONS_PER_ERRORS_ALARM) {
      const group = props.functions.slice(start, start + FUNCTIONS_PER_ERRORS_ALARM);
      const usingMetrics = Object.fromEntries(
        group.map((one, index) => [`f${index}`, one.function.metricErrors({ period: PERIOD, statistic: 'Sum', label: one.name })]),
      );
      this.alarm(`FunctionErrors${start / FUNCTIONS_PER_ERRORS_ALARM + 1}`, {
        metric: new MathExpression({
          expression: Object.keys(usingMetrics)
            .map((name) => `FILL(${name}, 0)`)
            .join(' + '),
          usingMetrics,
          label: 'Lambda Errors',
          period: PERIOD,
        }),
        description: `One of these functions threw or timed out (Lambda Errors >= 1 in 5 minutes): ${group.map((one) => one.name).join('; ')}. The dashboard's "Function errors" graph says which; its log group has the stack trace.`,
      });
    }

    const authorizerFailures = new MetricFilter(this, 'AuthorizerFailureFilter', {
      logGroup: props.authorizer.logGroup,
      filterPattern: FilterPattern.literal(`"${AUTHORIZER_FAILURE_LOG_MESSAGE}"`),
      // Per stack, so a dev and a prod stack in one account never add up.
      metricNamespace: serviceMetricsNamespace(Stack.of(this)),
      metricName: 'AuthorizerFailures',
      metricValue: '1',
      defaultValue: 0,
    });
    this.alarm('AuthorizerFailures', {
      metric: authorizerFailures.metric({ period: PERIOD, statistic: 'Sum' }),
      description:
        'Authorizer: authorization failed for a reason other than a bad token (store unavailable, bug); callers got 503. Denials (401) are not counted.',
    });

    this.alarm('Api5xx', {
      metric: props.apiStage.metricServerError({ period: PERIOD, statistic: 'Sum' }),
      description: 'API Gateway answered 5XX (function crash or timeout, authorizer failure, store unavailable) at least once in 5 minutes.',
    });

    this.alarm('DynamoDbThrottles', {
      metric: throttleEvents(props.table),
      description: 'DynamoDB throttled reads or writes on the table or its indexes (on-demand limits per partition or per table).',
    });

    this.alarm('DeadLetterQueue', {
      metric: props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description: 'A scheduled job failed after its retries: its event is in the dead-letter queue. Fix the cause, then re-run the job (it is idempotent).',
    });

    this.alarm('WebhookDeadLetterQueue', {
      metric: props.webhooks.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description:
        "Webhooks: a message could not be handled after its retries (the store or the queue failed, not a receiver: a receiver's failures are retried on the schedule and recorded in its delivery log). Fix the cause, then redrive the dead-letter queue to the delivery queue; every step is safe to run twice.",
    });

    this.alarm('ImportDeadLetterQueue', {
      metric: props.imports.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      description:
        "Imports: a step failed after its retries (the store, the bucket or the queue failed; a file's bad rows are in its job's report, not here), and its job stays running. Fix the cause, then redrive the dead-letter queue to the import queue; a step is safe to run twice.",
    });

    const namespace = serviceMetricsNamespace(Stack.of(this));
    const own = (metricName: string, dimensions: Record<string, string> = {}) =>
      new Metric({ namespace, metricName, dimensionsMap: { service: METRICS_SERVICE, ...dimensions }, period: PERIOD, statistic: 'Sum' });
    const loginFailureThreshold = props.loginFailureAlarmThreshold ?? DEFAULT_LOGIN_FAILURE_ALARM_THRESHOLD;
    const loginFailures = own(METRICS.logins.name, { [METRICS.logins.dimension]: LOGIN_FAILURE });
    this.alarm('LoginFailureSpike', {
      metric: loginFailures,
      threshold: loginFailureThreshold,
      description: `Security: at least ${loginFailureThreshold} failed sign-ins in 5 minutes across the service (credential stuffing or a password spray?). See the dashboard's sign-ins and throttled requests, and the platform audit trail's auth.login_failed entries.`,
    });
    const refreshReuse = own(METRICS.refreshReuse.name);
    this.alarm('RefreshTokenReuse', {
      metric: refreshReuse,
      description:
        'Security: a refresh token was presented again after its rotation, outside the grace window for parallel tabs; its session was revoked. A stolen token, or a client that keeps an old one. The audit trail has auth.refresh_reuse_detected with the session.',
    });

    // The scheduled integrity check (optional, daily): a day's sum, so the alarm holds until the next run.
    const integrityDrift = new Metric({
      namespace,
      metricName: METRICS.integrityDrift.name,
      dimensionsMap: { service: METRICS_SERVICE },
      period: Duration.days(1),
      statistic: 'Sum',
    });
    this.alarm('IntegrityDrift', {
      metric: integrityDrift,
      description:
        "Integrity: the nightly check found stored numbers that differ from what is recorded (a balance, a total, an index, a counter). Each drift is an error line of the integrity-check function's log with its keys; `npm run verify -- --tenant <id>` shows it again, and `--fix` mends what is derived. Find the cause before fixing: a drift is a bug or a hand-made change.",
    });

    // Every receiver failing at once is ours (the functions' network, DNS), not the tenants'.
    const attempts = (outcome: string) => own(METRICS.webhookAttempts.name, { [METRICS.webhookAttempts.dimension]: outcome });
    this.alarm('WebhookFailureRate', {
      metric: new MathExpression({
        expression: 'IF(ok + failed + silent >= 20, 100 * (failed + silent) / (ok + failed + silent), 0)',
        usingMetrics: { ok: attempts('succeeded'), failed: attempts('failed'), silent: attempts('no_answer') },
        label: 'Failed webhook attempts (%)',
        period: PERIOD,
      }),
      threshold: WEBHOOK_FAILURE_ALARM_PERCENT,
      description: `Webhooks: at least ${WEBHOOK_FAILURE_ALARM_PERCENT}% of at least 20 delivery attempts in 5 minutes failed. A few receivers down is their business (the Contributor Insights rule ${'`'}<stack>-webhook-failing-endpoints${'`'} ranks them); most of them at once points at the delivery's own network or DNS.`,
    });

    this.dashboard = this.operationsDashboard(props, namespace, { loginFailures, refreshReuse, integrityDrift });
  }

  /**
   * One page for the people on call. The per-route and per-type graphs are CloudWatch SEARCH
   * expressions over the stack's namespace: a route shows up once it has data, and a new
   * route needs no change here.
   */
  private operationsDashboard(
    props: ObservabilityProps,
    namespace: string,
    security: { loginFailures: Metric; refreshReuse: Metric; integrityDrift: Metric },
  ): Dashboard {
    const search = (metric: { name: string; dimension: string }, label: string) =>
      new MathExpression({
        expression: `SEARCH('{${namespace},service,${metric.dimension}} MetricName="${metric.name}"', 'Sum', 300)`,
        usingMetrics: {},
        label,
        period: PERIOD,
      });
    const graph = (title: string, left: IMetric[], width = 8) => new GraphWidget({ title, left, width, height: 6, period: PERIOD, statistic: 'Sum' });
    const stage = props.apiStage;
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `${Stack.of(this).stackName}-operations` });
    dashboard.addWidgets(
      new TextWidget({
        markdown: `# ${Stack.of(this).stackName}\nTraffic, security signals and business events. Alarms: ${this.alarms.length} (see the alarm list). Traces: X-Ray, service map of the API stage.`,
        width: 24,
        height: 2,
      }),
    );
    dashboard.addWidgets(
      graph('API requests', [stage.metricCount({ period: PERIOD, statistic: 'Sum' })]),
      graph('API 4XX and 5XX', [stage.metricClientError({ period: PERIOD, statistic: 'Sum' }), stage.metricServerError({ period: PERIOD, statistic: 'Sum' })]),
      new GraphWidget({
        title: 'API latency (p50, p99)',
        left: [stage.metricLatency({ period: PERIOD, statistic: 'p50' }), stage.metricLatency({ period: PERIOD, statistic: 'p99' })],
        width: 8,
        height: 6,
      }),
    );
    dashboard.addWidgets(
      graph('Sign-ins by outcome', [search(METRICS.logins, 'Sign-ins')]),
      graph('Failed sign-ins and refresh-token reuse', [
        security.loginFailures.with({ label: 'Failed sign-ins' }),
        security.refreshReuse.with({ label: 'Refresh-token reuse' }),
      ]),
      graph('Sessions revoked by reason', [search(METRICS.sessionsRevoked, 'Sessions revoked')]),
    );
    dashboard.addWidgets(
      graph('Throttled requests (429) by route', [search(METRICS.throttled, '429')]),
      graph('5xx by route (function problems)', [search(METRICS.serverErrors, '5xx')]),
      graph('Idempotent replays by route', [search(METRICS.idempotentReplays, 'Replays')]),
    );
    dashboard.addWidgets(
      graph('Inventory movements by type', [search(METRICS.movements, 'Movements')]),
      graph('DynamoDB throttle events', [throttleEvents(props.table)]),
      new GraphWidget({
        title: 'Integrity drift found by the nightly check (when enabled)',
        left: [security.integrityDrift.with({ label: 'Drift' })],
        width: 8,
        height: 6,
        period: Duration.days(1),
        statistic: 'Sum',
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Function errors (the functions of the Errors alarms)',
        left: props.functions.map((one) => one.function.metricErrors({ period: PERIOD, statistic: 'Sum', label: one.name })),
        width: 24,
        height: 6,
        period: PERIOD,
        legendPosition: LegendPosition.RIGHT,
      }),
    );
    const { queue, deadLetterQueue, failingEndpoints } = props.webhooks;
    dashboard.addWidgets(
      graph('Webhook attempts by outcome', [search(METRICS.webhookAttempts, 'Attempts')]),
      new GraphWidget({
        title: 'Webhook queue: waiting, in flight, dead letters',
        left: [
          queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: 'Waiting' }),
          queue.metricApproximateNumberOfMessagesNotVisible({ period: PERIOD, statistic: 'Maximum', label: 'In flight or delayed' }),
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label: 'Dead letters' }),
        ],
        width: 8,
        height: 6,
      }),
      new GraphWidget({
        title: 'Endpoints with failed attempts (Contributor Insights)',
        left: [
          new MathExpression({
            expression: `INSIGHT_RULE_METRIC('${failingEndpoints.attrRuleName}', 'UniqueContributors')`,
            usingMetrics: {},
            label: 'Failing endpoints',
            period: PERIOD,
          }),
        ],
        width: 8,
        height: 6,
      }),
    );
    return dashboard;
  }

  private alarm(id: string, options: { metric: IMetric; description: string; threshold?: number; comparisonOperator?: ComparisonOperator }): Alarm {
    const alarm = new Alarm(this, id, {
      metric: options.metric,
      alarmDescription: options.description,
      threshold: options.threshold ?? 1,
      comparisonOperator: options.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      datapointsToAlarm: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    if (this.alarmTopic) {
      alarm.addAlarmAction(new SnsAction(this.alarmTopic));
      alarm.addOkAction(new SnsAction(this.alarmTopic));
    }
    this.alarms.push(alarm);
    return alarm;
  }
}

/** Read and write throttle events of the table and of every GSI, summed (at most 10 metrics per alarm). */
function throttleEvents(table: ITableV2): IMetric {
  const metric = (metricName: string, indexName?: string) =>
    new Metric({
      namespace: 'AWS/DynamoDB',
      metricName,
      dimensionsMap: { TableName: table.tableName, ...(indexName ? { GlobalSecondaryIndexName: indexName } : {}) },
      period: PERIOD,
      statistic: 'Sum',
    });
  const usingMetrics: Record<string, IMetric> = { tableReads: metric('ReadThrottleEvents'), tableWrites: metric('WriteThrottleEvents') };
  tableDefinition.globalSecondaryIndexes.forEach((index, position) => {
    usingMetrics[`index${position}Reads`] = metric('ReadThrottleEvents', index.indexName);
    usingMetrics[`index${position}Writes`] = metric('WriteThrottleEvents', index.indexName);
  });
  return new MathExpression({
    expression: Object.keys(usingMetrics)
      .map((name) => `FILL(${name}, 0)`)
      .join(' + '),
    usingMetrics,
    label: 'Throttle events (table and indexes)',
    period: PERIOD,
  });
}
