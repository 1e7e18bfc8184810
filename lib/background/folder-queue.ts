import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * npm start's stand-in for sending a message to an SQS queue: one file in the queue's folder,
 * written whole and then renamed into place, so that the reader (local/folder-queue.ts) never
 * sees half a message. `name` (without `.json`) says whose it is in a listing.
 */
export async function sendToFolder(folder: string, name: string, message: unknown): Promise<void> {
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${name}.json`);
  await writeFile(`${path}.partial`, JSON.stringify(message));
  await rename(`${path}.partial`, path);
}
