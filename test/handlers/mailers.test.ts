import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mailer, type MailMessage } from '../../lib/mail/mailer';
import { OutboxMailer } from '../../lib/mail/outbox-mailer';
import { SesMailer } from '../../lib/mail/ses-mailer';

const message: MailMessage = {
  to: 'ana@acme.example',
  subject: 'Reset your password',
  text: 'Open https://app.example.com/reset-password?token=abc123 within 30 minutes.',
  html: '<p>Open <a href="https://app.example.com/reset-password?token=abc123">this link</a> within 30 minutes.</p>',
};

describe('SesMailer', () => {
  const ses = mockClient(SESClient);

  beforeEach(() => {
    ses.reset();
    ses.on(SendEmailCommand).resolves({ MessageId: '0100018c-example' });
  });

  it('sends one SendEmail with the sender, the recipient, the subject, and text and HTML bodies', async () => {
    await new SesMailer('no-reply@example.com').send(message);

    const sent = ses.commandCalls(SendEmailCommand);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.args[0].input).toEqual({
      Source: 'no-reply@example.com',
      Destination: { ToAddresses: ['ana@acme.example'] },
      Message: {
        Subject: { Data: 'Reset your password', Charset: 'UTF-8' },
        Body: {
          Text: { Data: message.text, Charset: 'UTF-8' },
          Html: { Data: message.html, Charset: 'UTF-8' },
        },
      },
    });
  });

  it('lets an SES failure through to the caller', async () => {
    const failure = Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' });
    ses.on(SendEmailCommand).rejects(failure);

    await expect(new SesMailer('no-reply@example.com').send(message)).rejects.toBe(failure);
  });

  it('is the configured transport when MAIL_TRANSPORT=ses, sending from MAIL_FROM', async () => {
    const configured = await mailer();
    await configured.send(message);

    expect(configured).toBeInstanceOf(SesMailer);
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Source).toBe('no-reply@example.com');
  });
});

describe('OutboxMailer', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'outbox-test-'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(directory, { recursive: true, force: true });
  });

  it('writes the message as one JSON file { to, subject, text, html, sentAt }', async () => {
    const before = Date.now();

    await new OutboxMailer(directory).send(message);

    const files = await readdir(directory);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.json$/);
    const written = JSON.parse(await readFile(join(directory, files[0] ?? ''), 'utf8')) as Record<string, unknown>;
    expect(written).toEqual({ ...message, sentAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) as string });
    expect(Date.parse(String(written.sentAt))).toBeGreaterThanOrEqual(before);
  });

  it('creates the outbox folder when it does not exist yet', async () => {
    const nested = join(directory, 'data', 'outbox');

    await new OutboxMailer(nested).send(message);

    expect(await readdir(nested)).toHaveLength(1);
  });

  it('keeps every message in its own file', async () => {
    const outbox = new OutboxMailer(directory);

    await Promise.all([outbox.send(message), outbox.send({ ...message, to: 'bruno@acme.example' })]);

    expect(await readdir(directory)).toHaveLength(2);
  });

  it('prints the recipient, the subject and the links of the message', async () => {
    await new OutboxMailer(directory).send(message);

    expect(console.warn).toHaveBeenCalledExactlyOnceWith(
      '[mail] to ana@acme.example: Reset your password\n       https://app.example.com/reset-password?token=abc123',
    );
  });
});
