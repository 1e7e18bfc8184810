import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { Alarm } from 'aws-cdk-lib/aws-cloudwatch';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { type Construct } from 'constructs';
import type { Route, TableAccess } from '../../lib/routes';
import { deadLetterAlarm, deadLetterQueue } from './dead-letter-queue';
import { bindTable, ServiceFunction } from './functions';

export interface QueueWorkerProps {
  /** The worker's entry in the manifest (lib/routes/background.ts `workers`): its handler, summary and table access. */
  worker: { handler: string; summary: string; table: TableAccess };
  /** The function's construct id (and CloudFormation logical id, kept across versions). */
  functionId: string;
  /** The area, as the function's description starts: `Exports`. */
  area: string;
  /** The queue as its findings name it: `the export queue`. */
  queueName: string;
  /** Why the dead-letter queue is read, and by whom (the AwsSolutions-SQS3 finding's reason). */
  deadLetterInspection: string;
  timeout: Duration;
  cpu?: Route['cpu'];
  environment: Record<string, string>;
  /** Receives of a message before it is parked in the dead-letter queue. */
  maxReceives: number;
  /** Messages per invocation (the partial-batch consumer returns only the failed ones). */
  batchSize: number;
  /** Invocations at once at most, whatever the queue holds: the API's own traffic keeps the table's capacity. */
  maxConcurrency: number;
  /** The environment variable through which the worker sends its own next messages (steps, wake-ups): the queue's URL and SendMessage. */
  sendsNextAs?: string;
  /** What the alarm on the dead-letter queue tells the operator; no alarm without it. */
  alarm?: string;
  table: ITableV2;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

export interface QueueWorker {
  queue: Queue;
  deadLetterQueue: Queue;
  worker: ServiceFunction;
  deadLetterAlarm: Alarm | undefined;
}

/**
 * The shape of every background job on AWS, built once: a queue with its dead-letter queue
 * (SQS-managed encryption, TLS only), the worker consuming it with partial batch responses
 * (lib/background/batch) and its table access granted exactly, and an alarm as soon as the
 * dead-letter queue holds a message. Built in the caller's scope with the ids each area had
 * before (`Queue`, `DeadLetterQueue`, `DeadLetterAlarm`, the function's own), so an upgrade
 * keeps the queues and the messages they hold. What differs per area (a bucket, a pipe, the
 * starters' grants) stays in the area's construct.
 */
export function queueWorker(scope: Construct, props: QueueWorkerProps & { alarm: string }): QueueWorker & { deadLetterAlarm: Alarm };
export function queueWorker(scope: Construct, props: QueueWorkerProps): QueueWorker;
export function queueWorker(scope: Construct, props: QueueWorkerProps): QueueWorker {
  const dlq = deadLetterQueue(scope, 'DeadLetterQueue', props.removalPolicy);
  Validations.of(dlq).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is itself the dead-letter queue of ${props.queueName}; ${props.deadLetterInspection}`,
  });
  Validations.of(dlq).acknowledge({
    id: 'cdk-validator-cfnguard::sqs_dlq_check',
    reason: `This queue is the dead-letter queue of ${props.queueName}. The rule wants a RedriveAllowPolicy on it: byQueue naming that queue would be a CloudFormation cycle (the queue's RedrivePolicy names this one), and allowAll would let any queue of the account redrive into it; the default (no policy) is what the queue's own RedrivePolicy needs.`,
  });
  const queue = new Queue(scope, 'Queue', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    // Six times the function's timeout, as Lambda advises for an SQS event source.
    visibilityTimeout: Duration.seconds(props.timeout.toSeconds() * 6),
    deadLetterQueue: { queue: dlq, maxReceiveCount: props.maxReceives },
    removalPolicy: props.removalPolicy,
  });

  const worker = new ServiceFunction(scope, props.functionId, {
    handler: props.worker.handler,
    description: `${props.area}: ${props.worker.summary}`,
    environment: { ...props.environment, ...(props.sendsNextAs ? { [props.sendsNextAs]: queue.queueUrl } : {}) },
    timeout: props.timeout,
    ...(props.cpu ? { cpu: props.cpu } : {}),
    logRetention: props.logRetention,
    removalPolicy: props.removalPolicy,
  });
  bindTable(worker.function, props.table, props.worker.table);
  if (props.sendsNextAs) queue.grantSendMessages(worker.function);
  worker.function.addEventSource(
    new SqsEventSource(queue, { batchSize: props.batchSize, reportBatchItemFailures: true, maxConcurrency: props.maxConcurrency }),
  );

  const alarm = props.alarm === undefined ? undefined : deadLetterAlarm(scope, 'DeadLetterAlarm', dlq, props.alarm);
  return { queue, deadLetterQueue: dlq, worker, deadLetterAlarm: alarm };
}
