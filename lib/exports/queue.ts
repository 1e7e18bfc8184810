import { enqueue, type SendMessage } from '../background/queue';
import type { ExportMessage } from './engine';
import type { ExportJob } from './model';

/**
 * How POST /exports starts a job's worker: a message on the export queue (lib/background's
 * sender: SQS deployed, npm start's folder locally), which the export worker takes one at a time.
 */
export interface ExportQueue {
  send(job: Pick<ExportJob, 'tenantId' | 'id'>): Promise<void>;
}

export const exportMessage = (job: Pick<ExportJob, 'tenantId' | 'id'>): ExportMessage => ({ type: 'export-run', tenantId: job.tenantId, exportId: job.id });

/** The SQS client loaded when a job is started, not at the route's cold start. */
const sendLater: SendMessage = async (url, message) => (await import('../background/sqs')).sendMessage(url, message);

/** The queue the configuration names. */
export function exportQueue(): ExportQueue {
  return {
    send: async (job) => {
      if (!(await enqueue('exports', `${job.tenantId}.${job.id}`, exportMessage(job), sendLater)))
        throw new Error('Invalid configuration: EXPORT_QUEUE_URL, or IMPORT_UPLOAD_DIR, is required for exports');
    },
  };
}
