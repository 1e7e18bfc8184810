import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { type Construct } from 'constructs';

/**
 * A dead-letter queue as the service keeps them: SQS-managed encryption, TLS only, and the
 * longest retention SQS allows (14 days: time to notice the alarm, fix the cause and redrive or
 * re-run by hand). Its findings are acknowledged where it is used, each for its own reason.
 */
export function deadLetterQueue(scope: Construct, id: string, removalPolicy: RemovalPolicy): Queue {
  return new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy,
  });
}
