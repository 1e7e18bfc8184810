import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { consumeBatch } from '../../lib/background/batch';
import { sendMessage } from '../../lib/background/sqs';
import { config } from '../../lib/config';
import { logger } from '../../lib/log';
import { countWebhookAttempt } from '../../lib/metrics';
import { storeDeliveryDeps } from '../../lib/webhooks/deps';
import { handleMessage, type EngineMessage, type WakeUps } from '../../lib/webhooks/engine';

/**
 * The webhook delivery function (infra/constructs/webhooks.ts): the queue's consumer. Each
 * message is a stream record of an event (forwarded by the pipe) or a wake-up of a delivery
 * (sent here, held back by SQS until the next attempt is due); lib/webhooks/engine handles both.
 * Messages are handled side by side, and only the ones that failed are returned to the queue
 * (partial batch responses), which retries them and parks them in the dead-letter queue after
 * its last receive.
 */

const deps = storeDeliveryDeps({ log: (line) => logger.info(line) });

const wakeUps: WakeUps = async (message, delaySeconds) => {
  const queueUrl = config().WEBHOOK_QUEUE_URL;
  if (!queueUrl) throw new Error('WEBHOOK_QUEUE_URL is not set: the delivery function cannot schedule a retry');
  await sendMessage(queueUrl, message, delaySeconds);
};

/** What an attempt's status code says, for the WebhookAttempts metric. */
const outcomeOf = (statusCode: number | null) => (statusCode === null ? 'no_answer' : statusCode >= 200 && statusCode < 300 ? 'succeeded' : 'failed');

export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  if (context) logger.addContext(context);
  const started = new Date().toISOString();
  return consumeBatch<EngineMessage | EngineMessage[]>(
    event,
    async (body) => {
      // One record per message (the pipe's batch size is 1); a list is taken as its records, should the pipe ever batch.
      const deliveries = (await Promise.all((Array.isArray(body) ? body : [body]).map((message) => handleMessage(message, deps, wakeUps)))).flat();
      // One line per attempt made now: the Contributor Insights rule ranks endpoints by these.
      for (const delivery of deliveries) {
        const last = delivery.attempts.at(-1);
        if (!last || last.at < started) continue;
        const outcome = outcomeOf(last.statusCode);
        countWebhookAttempt(outcome);
        logger.info('webhook attempt', {
          deliveryId: delivery.id,
          tenantId: delivery.tenantId,
          endpointId: delivery.endpointId,
          eventType: delivery.eventType,
          outcome,
          statusCode: last.statusCode,
          status: delivery.status,
          attempts: delivery.attempts.length,
        });
      }
    },
    { parallel: true, failure: 'webhook message not handled: the queue will retry it' },
  );
};
