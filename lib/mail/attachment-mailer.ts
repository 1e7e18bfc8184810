import { SendRawEmailCommand, SESClient } from '@aws-sdk/client-ses';
import { config } from '../config';
import type { Mailer, MailMessage } from './mailer';
import { mimeMessage } from './mime';

/**
 * The mailer of messages with attachments (a purchase order's CSV): SES's SendRawEmail with the
 * message as MIME (./mime), or locally the outbox, which keeps the attachments in its JSON. Its
 * own module, imported only by the functions that send attachments, so the other mail functions
 * keep SendEmail alone (./mailer).
 */

let client: SESClient | undefined;

class SesRawMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(message: MailMessage): Promise<void> {
    client ??= new SESClient({});
    await client.send(
      new SendRawEmailCommand({ Source: this.from, Destinations: [message.to], RawMessage: { Data: Buffer.from(mimeMessage(this.from, message), 'utf8') } }),
    );
  }
}

let instance: Promise<Mailer> | undefined;

export function attachmentMailer(): Promise<Mailer> {
  instance ??= (async () => {
    const { MAIL_TRANSPORT, MAIL_FROM, OUTBOX_DIR } = config();
    if (MAIL_TRANSPORT === 'ses') return new SesRawMailer(MAIL_FROM);
    const { OutboxMailer } = await import('./outbox-mailer');
    return new OutboxMailer(OUTBOX_DIR ?? '.data/outbox');
  })();
  return instance;
}
