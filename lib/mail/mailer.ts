import { config } from '../config';
import { SesMailer } from './ses-mailer';

/** One e-mail, as every transport takes it. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with it (a purchase order's CSV), as text: sent by ./attachment-mailer. */
  attachments?: { filename: string; contentType: string; content: string }[];
}

/** The mailer port: SES on AWS, the outbox folder locally. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

let instance: Promise<Mailer> | undefined;

/**
 * The configured mailer. Only the functions that send mail import this module, so only
 * their bundles hold the SES client. It is imported statically, by name, so that the
 * bundler keeps SESClient and SendEmailCommand alone: a module esbuild reaches through a
 * dynamic `import()` is inlined behind an init function and keeps every export, which put
 * all of SES (every command, 54 KB) in these bundles and, measured, made their import
 * slower, not faster. The client itself is created on the first message (./ses-mailer).
 * The outbox transport, local runs only, stays a dynamic import.
 */
export function mailer(): Promise<Mailer> {
  instance ??= (async () => {
    const { MAIL_TRANSPORT, MAIL_FROM, OUTBOX_DIR } = config();
    if (MAIL_TRANSPORT === 'ses') return new SesMailer(MAIL_FROM);
    const { OutboxMailer } = await import('./outbox-mailer');
    return new OutboxMailer(OUTBOX_DIR ?? '.data/outbox');
  })();
  return instance;
}
