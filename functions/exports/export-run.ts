import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { failExport, runExport, type ExportMessage } from '../../lib/exports/engine';
import { EXPORT_MAX_RECEIVES } from '../../lib/exports/model';
import { exportFiles } from '../../lib/exports/storage';
import { logger } from '../../lib/log';

/**
 * The export worker (infra/constructs/exports.ts): the export queue's consumer, one message at
 * a time, a whole export in one run (lib/exports/engine). A run that fails returns its message
 * to the queue and starts over; on the last receive the job is marked failed, so the user is
 * not left waiting on it, and the message goes to the dead-letter queue.
 */

export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  if (context) logger.addContext(context);
  const files = await exportFiles();
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const message = JSON.parse(record.body) as ExportMessage;
    const ref = { tenantId: message.tenantId, id: message.exportId };
    try {
      await runExport(ref, { now: Date.now, files });
    } catch (error) {
      const last = Number(record.attributes.ApproximateReceiveCount) >= EXPORT_MAX_RECEIVES;
      logger.error(last ? 'export not written: the queue gives up on it' : 'export not written: the queue will run it again', {
        error: error as Error,
        messageId: record.messageId,
      });
      if (last) await failExport(ref, Date.now()).catch((failure: unknown) => logger.error('export not marked failed', { error: failure as Error }));
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
