import { config } from '../config';

/** One e-mail, as every transport takes it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** The mailer port: SES on AWS, the outbox folder locally. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

let instance: Promise<Mailer> | undefined;

/** The configured mailer; the transport's code is loaded only by functions that send mail. */
export function mailer(): Promise<Mailer> {
  instance ??= (async () => {
    const { MAIL_TRANSPORT, MAIL_FROM, OUTBOX_DIR } = config();
    if (MAIL_TRANSPORT === 'ses') {
      const { SesMailer } = await import('./ses-mailer');
      return new SesMailer(MAIL_FROM);
    }
    const { OutboxMailer } = await import('./outbox-mailer');
    return new OutboxMailer(OUTBOX_DIR ?? '.data/outbox');
  })();
  return instance;
}
