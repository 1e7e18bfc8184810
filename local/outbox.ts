import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Reading the local mail outbox (lib/mail/outbox-mailer: one JSON file per message) from the
 * scripts that play a user against `npm start`: the walkthrough and the point of sale.
 */

/** The message files in the outbox (none when it does not exist yet). */
export function outboxFiles(outboxDir: string): string[] {
  try {
    return readdirSync(outboxDir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The token (`token=` of its link) of the newest e-mail to `address` that carries one and was
 * not in the outbox before (`before`: its files then), waiting up to `waitMs` for it;
 * undefined when none came.
 */
export async function mailedToken(outboxDir: string, address: string, before: ReadonlySet<string>, waitMs: number): Promise<string | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const arrived = outboxFiles(outboxDir)
      .filter((name) => !before.has(name))
      .sort()
      .reverse();
    for (const name of arrived) {
      let message: unknown;
      try {
        message = JSON.parse(readFileSync(join(outboxDir, name), 'utf8'));
      } catch {
        // A file being written: read again on the next round.
        continue;
      }
      if (!isObject(message) || message.to !== address || typeof message.text !== 'string') continue;
      const token = /[?&]token=([^&\s]+)/.exec(message.text)?.[1];
      if (token) return decodeURIComponent(token);
    }
    if (Date.now() >= deadline) return undefined;
    await sleep(100);
  }
}
