import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailMessage, Mailer } from './mailer';

/**
 * Local transport: every message becomes one JSON file `{ to, subject, text, html, sentAt }`
 * in the outbox folder, and its links are printed so a developer can click through.
 */
export class OutboxMailer implements Mailer {
  constructor(private readonly directory: string) {}

  async send(message: MailMessage): Promise<void> {
    const sentAt = new Date().toISOString();
    await mkdir(this.directory, { recursive: true });
    const name = `${sentAt.replace(/[:.]/g, '-')}-${randomUUID()}`;
    // Written beside, then renamed: a reader of the folder (a test, the seed, a developer's
    // script) never sees half a message.
    const partial = join(this.directory, `.${name}.partial`);
    await writeFile(partial, `${JSON.stringify({ ...message, sentAt }, null, 2)}\n`);
    await rename(partial, join(this.directory, `${name}.json`));
    const links = message.text.match(/https?:\/\/\S+/g) ?? [];
    console.warn(`[mail] to ${message.to}: ${message.subject}${links.map((link) => `\n       ${link}`).join('')}`);
  }
}
