import type { SendEmailCommand as SendEmailCommandType, SESClient } from '@aws-sdk/client-ses';
import type { MailMessage, Mailer } from './mailer';

let client: Promise<{ ses: SESClient; SendEmailCommand: typeof SendEmailCommandType }> | undefined;

/** The SES client, loaded on the first message: forgot-password for an unknown address never loads it. */
function ses() {
  client ??= import('@aws-sdk/client-ses').then(({ SESClient: Client, SendEmailCommand }) => ({ ses: new Client({}), SendEmailCommand }));
  return client;
}

/** Sends through Amazon SES from the configured (verified) sender identity. */
export class SesMailer implements Mailer {
  constructor(private readonly from: string) {}

  async send(message: MailMessage): Promise<void> {
    const { ses: sesClient, SendEmailCommand } = await ses();
    await sesClient.send(
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
