import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITopic } from 'aws-cdk-lib/aws-sns';
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

/** An alarm as soon as a dead-letter queue holds a message (its maximum over 5 minutes above 0). */
export function deadLetterAlarm(scope: Construct, id: string, queue: Queue, description: string): Alarm {
  return new Alarm(scope, id, {
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    alarmDescription: description,
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    datapointsToAlarm: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/**
 * A construct's own alarm notifies the stage's alarm topic (infra/constructs/observability.ts),
 * alarm and OK; without a topic (the dev default) it changes state in the console only, as every
 * alarm of the stage, and the rule that wants an action is acknowledged for that reason.
 */
export function notifyAlarm(alarm: Alarm, topic: ITopic | undefined): void {
  if (!topic) {
    Validations.of(alarm).acknowledge({
      id: 'cdk-validator-cfnguard::cloudwatch_alarm_action_check',
      reason:
        'This stage notifies nobody (no alarmTopicArn, createAlarmTopic false: the dev default), as for every alarm of infra/constructs/observability.ts: the alarm changes state in the console only. A stage with a topic gives it an alarm and an OK action.',
    });
    return;
  }
  alarm.addAlarmAction(new SnsAction(topic));
  alarm.addOkAction(new SnsAction(topic));
}
