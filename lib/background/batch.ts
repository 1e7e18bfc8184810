import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../log';

export interface BatchOptions<M> {
  /** Handle the records side by side (the webhook deliveries); one after the other otherwise. */
  parallel?: boolean;
  /** What the log says when a record fails (its message goes back to the queue). */
  failure: string;
  /** Run before the message returns to the queue (an export's last receive marks its job failed); its own failure is logged, never thrown. */
  onFailure?: (message: M, record: SQSRecord, error: unknown) => Promise<void>;
}

/**
 * The one partial-batch consumer of the queue workers, in the manner of Powertools'
 * BatchProcessor: each record's body is parsed as JSON and handled; the records that fail are
 * logged and answered as `batchItemFailures`, so SQS returns only them to the queue (and parks
 * them in the dead-letter queue after their last receive). A failure never fails the others.
 */
export async function consumeBatch<M>(
  event: SQSEvent,
  handle: (message: M, record: SQSRecord) => Promise<void>,
  options: BatchOptions<M>,
): Promise<SQSBatchResponse> {
  const one = async (record: SQSRecord): Promise<string | undefined> => {
    let message: M | undefined;
    try {
      message = JSON.parse(record.body) as M;
      await handle(message, record);
      return undefined;
    } catch (error) {
      logger.error(options.failure, { error: error as Error, messageId: record.messageId });
      if (options.onFailure && message !== undefined)
        await options
          .onFailure(message, record, error)
          .catch((failure: unknown) => logger.error('the failure of a queue message not recorded', { error: failure as Error, messageId: record.messageId }));
      return record.messageId;
    }
  };
  const failed: (string | undefined)[] = [];
  if (options.parallel) failed.push(...(await Promise.all(event.Records.map(one))));
  else for (const record of event.Records) failed.push(await one(record));
  return { batchItemFailures: failed.filter((id): id is string => id !== undefined).map((itemIdentifier) => ({ itemIdentifier })) };
}
