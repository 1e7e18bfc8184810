import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { consumeBatch } from '../../lib/background/batch';
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
  const files = exportFiles();
  return consumeBatch<ExportMessage>(event, (message) => runExport({ tenantId: message.tenantId, id: message.exportId }, { now: Date.now, files }), {
    failure: 'export not written: the queue will run it again, or give up on it at its last receive',
    onFailure: async (message, record) => {
      if (Number(record.attributes.ApproximateReceiveCount) < EXPORT_MAX_RECEIVES) return;
      logger.error('export not written: the queue gives up on it', { messageId: record.messageId });
      await failExport({ tenantId: message.tenantId, id: message.exportId }, Date.now());
    },
  });
};
