import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import type { MailMessage, Mailer } from './mailer';

const client = new SESClient({});

/** Sends through Amazon SES from the configured (verified) sender identity. */
export class SesMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(message: MailMessage): Promise<void> {
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
