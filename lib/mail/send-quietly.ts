import { logger } from '../log';

/** Send a notification whose failure must not change the answer: it is logged for the operator. */
export async function sendQuietly(send: () => Promise<void>, what: string): Promise<void> {
  try {
    await send();
  } catch (error) {
    // The answer must not depend on it (existence would leak); the operator sees it.
    logger.error(`${what} failed`, { error: error as Error });
  }
}
