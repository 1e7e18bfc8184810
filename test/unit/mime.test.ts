import { describe, expect, it } from 'vitest';
import { mimeMessage } from '../../lib/mail/mime';

/** The raw MIME of a message with attachments (SES SendRawEmail), read back part by part. */

const decode = (part: string) => Buffer.from(part.split('\r\n\r\n')[1]?.replaceAll('\r\n', '') ?? '', 'base64').toString('utf8');

describe('mimeMessage', () => {
  const raw = mimeMessage(
    'Back-office <no-reply@backoffice.example>',
    {
      to: 'compras@fornecedor.example',
      subject: 'Pedido de compra PC-000001 — Loja Centro',
      text: 'Olá, segue o pedido.',
      html: '<p>Olá, segue o pedido.</p>',
      attachments: [{ filename: 'PC-000001.csv', contentType: 'text/csv; charset=UTF-8', content: '\uFEFFSKU;Quantidade\r\nCAF-1;1,5\r\n' }],
    },
    'b0',
  );

  it('heads the message with the sender, the recipient and the subject as an encoded word', () => {
    expect(raw.split('\r\n\r\n')[0]).toBe(
      [
        'From: Back-office <no-reply@backoffice.example>',
        'To: compras@fornecedor.example',
        `Subject: =?UTF-8?B?${Buffer.from('Pedido de compra PC-000001 — Loja Centro').toString('base64')}?=`,
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="mixed-b0"',
      ].join('\r\n'),
    );
  });

  it('holds the text, the HTML and the attachment, each base64 of its UTF-8, and closes every boundary', () => {
    const parts = raw.split(/--(?:mixed|alt)-b0(?:--)?\r\n/).map((part) => part.replace(/^\r\n|\r\n$/g, ''));
    expect(parts.map((part) => part.split('\r\n')[0])).toEqual([
      'From: Back-office <no-reply@backoffice.example>',
      'Content-Type: multipart/alternative; boundary="alt-b0"',
      'Content-Type: text/plain; charset=UTF-8',
      'Content-Type: text/html; charset=UTF-8',
      // The inner multipart's (empty) epilogue, between its close and the attachment's boundary.
      '',
      'Content-Type: text/csv; charset=UTF-8; name="PC-000001.csv"',
      '',
    ]);
    expect(decode(parts[2] ?? '')).toBe('Olá, segue o pedido.');
    expect(decode(parts[3] ?? '')).toBe('<p>Olá, segue o pedido.</p>');
    expect(parts[5]).toContain('Content-Disposition: attachment; filename="PC-000001.csv"');
    expect(decode(parts[5] ?? '')).toBe('\uFEFFSKU;Quantidade\r\nCAF-1;1,5\r\n');
    expect(raw.endsWith('--mixed-b0--\r\n')).toBe(true);
  });

  it('keeps a line break in a subject from adding a header', () => {
    const injected = mimeMessage('a@b.example', { to: 'c@d.example', subject: 'Oi\r\nBcc: evil@x.example', text: 't', html: 'h' }, 'b1');
    expect(injected.split('\r\n').filter((line) => line.startsWith('Bcc:'))).toEqual([]);
    expect(injected).toContain('Subject: Oi Bcc: evil@x.example');
  });
});
