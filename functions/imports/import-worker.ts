import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { consumeBatch } from '../../lib/background/batch';
import { sendMessage } from '../../lib/background/sqs';
import { config } from '../../lib/config';
import { handleImportMessage, type StepMessage } from '../../lib/imports/engine';
import { importStorage } from '../../lib/imports/storage';
import { logger } from '../../lib/log';

/**
 * The import worker (infra/constructs/imports.ts): the import queue's consumer, one message at a
 * time. A message is S3's notice that a job's file came (its first step) or the step the one
 * before sent (lib/imports/engine); each step handles up to STEP_ROWS rows and sends the next.
 * A message that fails returns to the queue, and its step runs again (it records once), until
 * the dead-letter queue takes it.
 */
const next = async (message: StepMessage): Promise<void> => {
  const queueUrl = config().IMPORT_QUEUE_URL;
  if (!queueUrl) throw new Error('IMPORT_QUEUE_URL is not set: the import worker cannot send its next step');
  await sendMessage(queueUrl, message);
};

export const handler = async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> => {
  if (context) logger.addContext(context);
  const files = importStorage();
  return consumeBatch<StepMessage>(event, (message) => handleImportMessage(message, { now: Date.now, files }, next), {
    failure: 'import step not done: the queue will run it again',
  });
};
