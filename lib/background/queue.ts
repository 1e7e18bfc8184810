import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '../config';

/**
 * How a background job's message is sent: to its SQS queue deployed (the URL in the queue's
 * variable, set on the functions that send), or under `npm start` (in process or from a
 * bundle alike) to one folder that stands in for every queue (LOCAL_QUEUE_FOLDER under
 * IMPORT_UPLOAD_DIR), which local/background.ts reads and runs with the deployed workers' code.
 * A file is written whole and then renamed into place, so that the reader never sees half a
 * message; its name starts with its queue's.
 */
export type QueueName = 'exports' | 'tenant-jobs';

const URL_VARIABLES = { exports: 'EXPORT_QUEUE_URL', 'tenant-jobs': 'TENANT_JOB_QUEUE_URL' } as const;

/** The folder under IMPORT_UPLOAD_DIR that stands in for the queues locally. */
export const LOCAL_QUEUE_FOLDER = 'queue';

/** A message in the local folder: the queue it was sent to, and the message as SQS would carry it. */
export interface FolderMessage {
  queue: QueueName;
  message: unknown;
}

/** The SQS sender (./sqs `sendMessage`), passed in: see `enqueue`. */
export type SendMessage = (queueUrl: string, message: unknown) => Promise<void>;

/**
 * Send `message` to `queue`; `name` says whose it is in the local folder's listing. False when
 * the configuration names neither the queue nor a local folder (a test running the engine itself).
 *
 * The caller passes ./sqs's `sendMessage`: a worker that sends on every step imports it
 * statically; a route that only sometimes sends imports it dynamically, so that its cold start
 * does not load the client. Importing it dynamically here for everyone would keep the whole
 * SQS client in every bundle (a module loaded by `import()` is not tree-shaken: infra/bundling.ts).
 */
export async function enqueue(queue: QueueName, name: string, message: unknown, send: SendMessage): Promise<boolean> {
  const settings = config();
  const url = settings[URL_VARIABLES[queue]];
  if (url) {
    await send(url, message);
    return true;
  }
  if (!settings.IMPORT_UPLOAD_DIR) return false;
  const folder = join(settings.IMPORT_UPLOAD_DIR, LOCAL_QUEUE_FOLDER);
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${queue}.${name}.json`);
  await writeFile(`${path}.partial`, JSON.stringify({ queue, message } satisfies FolderMessage));
  await rename(`${path}.partial`, path);
  return true;
}
