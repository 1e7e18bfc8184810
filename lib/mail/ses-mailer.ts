import { SendEmailCommand, SESClient } from '@aws-sdk/client-ses';
import type { MailMessage, Mailer } from './mailer';

/*
 * Imported by name, statically, through ./mailer: only the functions that send mail import
 * that, and the bundler keeps SESClient and SendEmailCommand alone (see mailer()). The
 * client is created on the first message: forgot-password for an unknown address never
 * creates it.
 */
let client: SESClient | undefined;

/** Sends through Amazon SES from the configured (verified) sender identity. */
export class SesMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(message: MailMessage): Promise<void> {
    client ??= new SESClient({});
    await client.send(
      new SendEmailCommand({
        Source: this.from,
        Destination: { ToAddresses: [message.to] },
        Message: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: message.text, Charset: 'UTF-8' }, Html: { Data: message.html, Charset: 'UTF-8' } },
        },
      }),
    );
  }
}
