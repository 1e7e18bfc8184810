import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { exportMessage, type ExportQueue } from './queue';

let client: SQSClient | undefined;

/** The deployed queue: one message per job on the export queue (infra/constructs/exports.ts). */
export function sqsExportQueue(queueUrl: string): ExportQueue {
  return {
    send: async (job) => {
      client ??= new SQSClient({});
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(exportMessage(job)) }));
    },
  };
}
