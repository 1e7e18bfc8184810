import { describe, expect, it } from 'vitest';
import { folderDownloadLink, folderUploadLink, linkSignature, linkSigned } from '../../lib/background/folder-files';

/**
 * npm start's one link signer: a link is good for its key, expiry and terms only, so that a
 * download link is no upload link, and neither works for another key, size, name or type.
 */
const secret = 'the secret';
const key = 'imports/11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222.csv';
const nowMs = Date.parse('2026-11-26T12:00:00.000Z');
const params = (url: string) => new URL(url, 'http://local').searchParams;

describe('the local file links', () => {
  it('signs an upload for its key, expiry and size, and nothing else', async () => {
    const link = await folderUploadLink(secret, key, { seconds: 900, size: 12, contentType: 'text/csv' }, nowMs);
    const query = params(link.url);
    const expires = Number(query.get('expires'));
    const signature = String(query.get('signature'));
    expect({ method: link.method, path: link.url.split('?')[0], headers: link.headers, expiresAt: link.expiresAt, size: query.get('size') }).toEqual({
      method: 'PUT',
      path: `/local-files/${key}`,
      headers: { 'content-type': 'text/csv' },
      expiresAt: '2026-11-26T12:15:00.000Z',
      size: '12',
    });
    expect([
      linkSigned(secret, key, expires, { method: 'PUT', size: 12 }, signature),
      linkSigned(secret, key, expires, { method: 'PUT', size: 13 }, signature),
      linkSigned(secret, key, expires + 1, { method: 'PUT', size: 12 }, signature),
      linkSigned(secret, key.replace('.csv', '.txt'), expires, { method: 'PUT', size: 12 }, signature),
      linkSigned('another secret', key, expires, { method: 'PUT', size: 12 }, signature),
      linkSigned(secret, key, expires, { method: 'GET', name: '12', type: '' }, signature),
    ]).toEqual([true, false, false, false, false, false]);
  });

  it('signs a download for its name and type, which the link carries', async () => {
    const link = await folderDownloadLink(secret, key, { seconds: 60, fileName: 'a.csv', contentType: 'text/csv; charset=utf-8' }, nowMs);
    const query = params(link.url);
    const expires = Number(query.get('expires'));
    expect({ name: query.get('name'), type: query.get('type'), expiresAt: link.expiresAt }).toEqual({
      name: 'a.csv',
      type: 'text/csv; charset=utf-8',
      expiresAt: '2026-11-26T12:01:00.000Z',
    });
    expect(String(query.get('signature'))).toBe(linkSignature(secret, key, expires, { method: 'GET', name: 'a.csv', type: 'text/csv; charset=utf-8' }));
    expect(linkSigned(secret, key, expires, { method: 'GET', name: 'b.csv', type: 'text/csv; charset=utf-8' }, String(query.get('signature')))).toBe(false);
  });

  it('leaves name and type out of a plain download link', async () => {
    const link = await folderDownloadLink(secret, key, { seconds: 60 }, nowMs);
    expect([...params(link.url).keys()]).toEqual(['expires', 'signature']);
  });
});
