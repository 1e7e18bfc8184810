import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { jobs as jobsManifest } from '../../lib/routes';
import { deadLetterQueue } from './dead-letter-queue';
import { bindTable, ServiceFunction } from './functions';

/** Attempts after the first one, both for delivering the event and for running the function. */
export const JOB_RETRY_ATTEMPTS = 2;
/** A run that could not start or finish within this long goes to the dead-letter queue. */
export const JOB_MAX_EVENT_AGE = Duration.hours(2);

export interface JobsProps {
  table: ITableV2;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
  /** The optional jobs (manifest `optional: true`) whose rule is enabled; the others' rules are deployed disabled. */
  enabledJobs: readonly string[];
}

export type JobId = keyof typeof jobsManifest;

/**
 * The scheduled jobs of the manifest (`jobs` in lib/routes/background.ts): each its own function on an
 * EventBridge rule at its UTC time, sharing one dead-letter queue. An optional job's rule is
 * deployed disabled unless the stage enables it (context `enableJobs`).
 *
 * Two kinds of failure are retried and then parked in that queue:
 * - EventBridge cannot invoke the function (throttling, service error): the rule target's
 *   retry policy and dead-letter queue;
 * - the function runs and fails (throws, times out): Lambda's asynchronous invocation
 *   retries, then its on-failure destination, which records the event with the error.
 * A retry is safe because the jobs are idempotent. The queue's depth is alarmed on.
 */
export class Jobs extends Construct {
  readonly functions: Record<JobId, ServiceFunction>;
  readonly rules: Record<JobId, Rule>;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: JobsProps) {
    super(scope, id);

    this.deadLetterQueue = deadLetterQueue(this, 'DeadLetterQueue', props.removalPolicy);
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'cdk-validator-cfnguard::sqs_dlq_check',
      reason:
        "This queue is the dead-letter queue of the jobs' asynchronous Lambda invocations, not of an SQS queue, and nothing consumes it: a dead-letter queue of its own would never receive a message. The rule recognises a dead-letter queue only by an SQS redrive allowance (allowAll or byQueue), which would let queues that have no reason to redrive into it.",
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'This queue is itself the dead-letter queue of the scheduled jobs; its messages are inspected by an operator (alarm on ApproximateNumberOfMessagesVisible > 0), never consumed automatically.',
    });

    const functions: Partial<Record<JobId, ServiceFunction>> = {};
    const rules: Partial<Record<JobId, Rule>> = {};
    for (const [jobId, job] of Object.entries(jobsManifest) as [JobId, (typeof jobsManifest)[JobId]][]) {
      const name = jobId.charAt(0).toUpperCase() + jobId.slice(1);
      const service = new ServiceFunction(this, `${name}Function`, {
        handler: job.handler,
        description: `Scheduled job ${job.name}: ${job.summary}`,
        environment: props.environment,
        // Well beyond a day's roll-up, under Lambda's 15-minute cap; a run cut short is
        // retried and resumes where it stopped.
        timeout: Duration.minutes(10),
        logRetention: props.logRetention,
        removalPolicy: props.removalPolicy,
      });
      bindTable(service.function, props.table, job.table);
      service.function.configureAsyncInvoke({
        retryAttempts: JOB_RETRY_ATTEMPTS,
        maxEventAge: JOB_MAX_EVENT_AGE,
        onFailure: new SqsDestination(this.deadLetterQueue),
      });

      const optional = 'optional' in job && job.optional;
      const rule = new Rule(this, `${name}Schedule`, {
        description: `${job.name} at ${String(job.schedule.hour).padStart(2, '0')}:${String(job.schedule.minute).padStart(2, '0')} UTC${optional ? ' (optional: context enableJobs)' : ''}`,
        schedule: Schedule.cron({ hour: String(job.schedule.hour), minute: String(job.schedule.minute) }),
        enabled: !optional || props.enabledJobs.includes(jobId),
      });
      rule.addTarget(
        new LambdaFunction(service.function, {
          retryAttempts: JOB_RETRY_ATTEMPTS,
          maxEventAge: JOB_MAX_EVENT_AGE,
          deadLetterQueue: this.deadLetterQueue,
        }),
      );
      functions[jobId] = service;
      rules[jobId] = rule;
    }
    this.functions = functions as Record<JobId, ServiceFunction>;
    this.rules = rules as Record<JobId, Rule>;
  }
}
