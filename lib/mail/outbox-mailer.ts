import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
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
    const file = join(this.directory, `${sentAt.replace(/[:.]/g, '-')}-${randomUUID()}.json`);
    await writeFile(file, `${JSON.stringify({ ...message, sentAt }, null, 2)}\n`);
    const links = message.text.match(/https?:\/\/\S+/g) ?? [];
    console.warn(`[mail] to ${message.to}: ${message.subject}${links.map((link) => `\n       ${link}`).join('')}`);
  }
}
