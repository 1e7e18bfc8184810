import { Duration, Stack, type RemovalPolicy } from 'aws-cdk-lib';
import { type ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { CfnInsightRule } from 'aws-cdk-lib/aws-cloudwatch';
import { type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { CfnPipe } from 'aws-cdk-lib/aws-pipes';
import { type Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { EVENT_ITEMS } from '../../lib/db/item-types';
import { uses, workers } from '../../lib/routes';
import { type ServiceFunction } from './functions';
import { queueWorker } from './queue-worker';
import type { Mail } from './mail';

/** Construct id, and CloudFormation logical id, of the delivery function. */
export const WEBHOOK_DELIVERY_FUNCTION_ID = 'WebhookDeliveryFunction';

/** How long the delivery function may run: a batch of messages, each fanning out to at most 20 endpoints side by side, each with a 10 s timeout. */
export const DELIVERY_FUNCTION_TIMEOUT = Duration.seconds(60);
/** How many times a message is received before it is parked in the dead-letter queue. */
export const DELIVERY_MAX_RECEIVES = 5;
/** At most this many delivery functions run at once: a burst of events waits in the queue instead of taking the account's concurrency. */
export const DELIVERY_MAX_CONCURRENCY = 20;

/** Only the inserts of event items go from the stream to the queue (the pipe's filter). */
export const STREAM_FILTER = { eventName: ['INSERT'], dynamodb: { NewImage: { type: { S: [EVENT_ITEMS.event] } } } };

export interface WebhooksProps {
  table: ITableV2;
  environment: Record<string, string>;
  mail: Mail;
  logRetention: RetentionDays;
  removalPolicy: RemovalPolicy;
}

/**
 * Webhook delivery on AWS engines (lib/webhooks/engine):
 * - the table's stream (NEW_IMAGE) → an EventBridge pipe that keeps the inserts of event items
 *   only → the delivery queue;
 * - the delivery queue → the delivery function (partial batch responses, at most
 *   DELIVERY_MAX_CONCURRENCY at once), which dispatches each event and sends the queue its own
 *   wake-ups (delayed messages) for the retries;
 * - a message received DELIVERY_MAX_RECEIVES times without being handled → the dead-letter
 *   queue, alarmed on; the pipe parks a stream batch it cannot forward there too;
 * - a Contributor Insights rule on the function's log lines: which endpoints fail most, without
 *   a metric per endpoint.
 */
export class Webhooks extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly function: ServiceFunction;
  readonly failingEndpoints: CfnInsightRule;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    const worker = workers.deliveryWorker;

    const built = queueWorker(this, {
      worker,
      functionId: WEBHOOK_DELIVERY_FUNCTION_ID,
      area: 'Webhooks',
      queueName: 'the webhook delivery queue and of its pipe',
      deadLetterInspection: 'an operator inspects and redrives it (alarm on any message).',
      timeout: DELIVERY_FUNCTION_TIMEOUT,
      environment: props.environment,
      maxReceives: DELIVERY_MAX_RECEIVES,
      batchSize: 10,
      maxConcurrency: DELIVERY_MAX_CONCURRENCY,
      sendsNextAs: 'WEBHOOK_QUEUE_URL',
      table: props.table,
      logRetention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });
    this.queue = built.queue;
    this.deadLetterQueue = built.deadLetterQueue;
    this.function = built.worker;
    // The administrators told when an endpoint is disabled (the manifest's `uses`).
    if (uses(worker, 'mail')) props.mail.grantSend(this.function.function);

    const streamArn = props.table.tableStreamArn;
    if (!streamArn) throw new Error('The table has no stream: webhooks cannot be delivered');
    const pipeRole = new Role(this, 'PipeRole', {
      assumedBy: new ServicePrincipal('pipes.amazonaws.com'),
      description: 'The webhook pipe: reads the table stream, sends to the delivery queue',
    });
    pipeRole.addToPolicy(
      new PolicyStatement({
        actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'],
        resources: [streamArn],
      }),
    );
    this.queue.grantSendMessages(pipeRole);
    this.deadLetterQueue.grantSendMessages(pipeRole);
    new CfnPipe(this, 'Pipe', {
      description: 'Domain events from the table stream to the webhook delivery queue',
      roleArn: pipeRole.roleArn,
      source: streamArn,
      sourceParameters: {
        dynamoDbStreamParameters: {
          startingPosition: 'TRIM_HORIZON',
          batchSize: 1,
          maximumRetryAttempts: 10,
          deadLetterConfig: { arn: this.deadLetterQueue.queueArn },
        },
        filterCriteria: { filters: [{ pattern: JSON.stringify(STREAM_FILTER) }] },
      },
      target: this.queue.queueArn,
    });

    this.failingEndpoints = new CfnInsightRule(this, 'FailingEndpoints', {
      ruleName: `${Stack.of(this).stackName}-webhook-failing-endpoints`,
      ruleState: 'ENABLED',
      ruleBody: Stack.of(this).toJsonString({
        Schema: { Name: 'CloudWatchLogRule', Version: 1 },
        LogGroupNames: [this.function.logGroup.logGroupName],
        LogFormat: 'JSON',
        Contribution: {
          Keys: ['$.tenantId', '$.endpointId'],
          Filters: [
            { Match: '$.message', In: ['webhook attempt'] },
            { Match: '$.outcome', In: ['failed', 'no_answer'] },
          ],
        },
        AggregateOn: 'Count',
      }),
    });
  }
}
