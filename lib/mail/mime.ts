import { randomUUID } from 'node:crypto';
import type { MailMessage } from './mailer';

/**
 * A message with attachments as the raw MIME SES's SendRawEmail takes (RFC 2045/2046/2047):
 * multipart/mixed of a multipart/alternative (text, then HTML) and each attachment, every
 * part base64 (UTF-8), the subject and file names encoded words. Pure: the tests read it back.
 */

const base64Lines = (text: string): string =>
  (
    Buffer.from(text, 'utf8')
      .toString('base64')
      .match(/.{1,76}/g) ?? []
  ).join('\r\n');

/** A header value in UTF-8 as an RFC 2047 encoded word (plain ASCII stays as it is). */
const encodedWord = (text: string): string => (/^[\x20-\x7e]*$/.test(text) ? text : `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`);

/** A header's value with no line break in it (a subject or a name from a request must not add headers). */
const oneLine = (text: string): string => text.replace(/[\r\n]+/g, ' ');

export function mimeMessage(from: string, message: MailMessage, boundary = randomUUID().replaceAll('-', '')): string {
  const mixed = `mixed-${boundary}`;
  const alternative = `alt-${boundary}`;
  const part = (contentType: string, body: string, extra: string[] = []) =>
    [`Content-Type: ${contentType}`, 'Content-Transfer-Encoding: base64', ...extra, '', base64Lines(body)].join('\r\n');
  const lines = [
    `From: ${oneLine(from)}`,
    `To: ${oneLine(message.to)}`,
    `Subject: ${encodedWord(oneLine(message.subject))}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
    '',
    `--${mixed}`,
    `Content-Type: multipart/alternative; boundary="${alternative}"`,
    '',
    `--${alternative}`,
    part('text/plain; charset=UTF-8', message.text),
    `--${alternative}`,
    part('text/html; charset=UTF-8', message.html),
    `--${alternative}--`,
    ...(message.attachments ?? []).flatMap((attachment) => {
      const name = encodedWord(oneLine(attachment.filename)).replaceAll('"', '');
      return [`--${mixed}`, part(`${attachment.contentType}; name="${name}"`, attachment.content, [`Content-Disposition: attachment; filename="${name}"`])];
    }),
    `--${mixed}--`,
    '',
  ];
  return lines.join('\r\n');
}
