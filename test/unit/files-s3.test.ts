import { AbortMultipartUploadCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Signed from '../../lib/background/s3-signed';
import { s3Writer } from '../../lib/background/s3-writer';

/**
 * The file store on S3 (lib/background): a file written as one upload, the presigned links,
 * and the read by one signed GET without the S3 client (its request, its bytes, a missing
 * file, S3's refusals).
 */
const s3 = mockClient(S3Client);
const saved = { ...process.env };
const key = 'exports/11111111-1111-4111-8111-111111111111/22222222-2222-4222-8222-222222222222.csv';

let signed: typeof Signed;

beforeEach(async () => {
  process.env.AWS_REGION = 'sa-east-1';
  process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
  process.env.AWS_SESSION_TOKEN = 'session-token';
  // Fresh modules: the signer keeps the credentials it first read, and another test file of this worker may have read others.
  vi.resetModules();
  signed = await import('../../lib/background/s3-signed');
});
afterEach(() => {
  s3.reset();
  process.env = { ...saved };
});
// The unit project shares its workers between files: S3Client is left as it was.
afterAll(() => s3.restore());

/** A fetch that answers `response` and keeps what it was asked. */
function fakeFetch(response: () => Response) {
  const asked: string[] = [];
  const fetchObject = (async (input: string) => {
    asked.push(input);
    return response();
  }) as typeof fetch;
  return { asked, fetchObject };
}

const unsignedQuery = (url: URL) => Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'X-Amz-Signature' && name !== 'X-Amz-Date'));

describe('a file written to S3', () => {
  it('writes the chunks as one object under its key, with its type', async () => {
    s3.on(PutObjectCommand).resolves({});
    const writer = s3Writer('the-bucket', key, 'text/csv; charset=utf-8');
    await writer.write('\uFEFFNome\r\n');
    await writer.write('Açúcar\r\n');
    await writer.end();
    const [call] = s3.commandCalls(PutObjectCommand);
    const input = call?.args[0].input;
    expect({ Bucket: input?.Bucket, Key: input?.Key, ContentType: input?.ContentType }).toEqual({
      Bucket: 'the-bucket',
      Key: key,
      ContentType: 'text/csv; charset=utf-8',
    });
    expect(Buffer.from(input?.Body as Uint8Array).toString('utf8')).toBe('\uFEFFNome\r\nAçúcar\r\n');
  });

  it('fails the end when S3 refuses the upload, and an abort then throws nothing', async () => {
    s3.on(PutObjectCommand).rejects(new Error('AccessDenied'));
    s3.on(AbortMultipartUploadCommand).resolves({});
    const writer = s3Writer('the-bucket', key, 'text/csv; charset=utf-8');
    await writer.write('Nome\r\n');
    await expect(writer.end()).rejects.toThrow('AccessDenied');
    await expect(writer.abort()).resolves.toBeUndefined();
  });
});

describe('the links', () => {
  const nowMs = Date.parse('2026-11-26T12:00:00.000Z');

  it('presigns a GET answered as an attachment of the name and type asked', async () => {
    const link = await signed.s3DownloadLink(
      'the-bucket',
      key,
      { seconds: 900, fileName: 'fornecedores-2026-11-26.csv', contentType: 'text/csv; charset=utf-8' },
      nowMs,
    );
    const url = new URL(link.url);
    expect([url.hostname, url.pathname]).toEqual(['the-bucket.s3.sa-east-1.amazonaws.com', `/${key}`]);
    expect(unsignedQuery(url)).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      'X-Amz-Credential': expect.stringMatching(/^AKIAEXAMPLE\/\d{8}\/sa-east-1\/s3\/aws4_request$/) as string,
      'X-Amz-Expires': '900',
      'X-Amz-Security-Token': 'session-token',
      'X-Amz-SignedHeaders': 'host',
      'response-content-disposition': 'attachment; filename="fornecedores-2026-11-26.csv"',
      'response-content-type': 'text/csv; charset=utf-8',
      'x-id': 'GetObject',
    });
    expect(link.expiresAt).toBe('2026-11-26T12:15:00.000Z');
  });

  it("presigns a plain GET when no name or type is asked: the object's own type", async () => {
    const link = await signed.s3DownloadLink('the-bucket', 'tenant-exports/a/b/manifest.json', { seconds: 900 }, nowMs);
    const url = new URL(link.url);
    expect([url.searchParams.has('response-content-disposition'), url.searchParams.has('response-content-type'), url.searchParams.get('x-id')]).toEqual([
      false,
      false,
      'GetObject',
    ]);
  });

  it('presigns a PUT signed for the size and type, so that S3 refuses another', async () => {
    const link = await signed.s3UploadLink('the-bucket', 'imports/a/b.csv', { seconds: 900, size: 1234, contentType: 'text/csv' }, nowMs);
    const url = new URL(link.url);
    expect({ method: link.method, headers: link.headers, expiresAt: link.expiresAt, signedHeaders: url.searchParams.get('X-Amz-SignedHeaders') }).toEqual({
      method: 'PUT',
      headers: { 'content-type': 'text/csv' },
      expiresAt: '2026-11-26T12:15:00.000Z',
      signedHeaders: 'content-length;content-type;host',
    });
    expect(url.searchParams.get('x-id')).toBe('PutObject');
  });
});

describe('a file read from S3', () => {
  it('GETs the key with a SigV4 query signature of a minute, and returns the bytes', async () => {
    const body = new TextEncoder().encode('sku;nome\r\nA-1;Açúcar\r\n');
    const { asked, fetchObject } = fakeFetch(() => new Response(body, { status: 200 }));
    expect(await signed.s3Read('the-bucket', key, fetchObject)).toEqual(body);
    expect(asked).toHaveLength(1);
    const url = new URL(asked[0] as string);
    expect(`${url.origin}${url.pathname}`).toBe(`https://the-bucket.s3.sa-east-1.amazonaws.com/${key}`);
    expect(unsignedQuery(url)).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      'X-Amz-Credential': expect.stringMatching(/^AKIAEXAMPLE\/\d{8}\/sa-east-1\/s3\/aws4_request$/) as string,
      'X-Amz-Expires': '60',
      'X-Amz-Security-Token': 'session-token',
      'X-Amz-SignedHeaders': 'host',
      'x-id': 'GetObject',
    });
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers no file when S3 has none (404)', async () => {
    const { fetchObject } = fakeFetch(() => new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404 }));
    await expect(signed.s3Read('the-bucket', key, fetchObject)).resolves.toBeUndefined();
  });

  it("throws S3's refusal with its code, a throttle as one", async () => {
    const denied = fakeFetch(
      () => new Response('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>', { status: 403 }),
    );
    await expect(signed.s3Read('the-bucket', key, denied.fetchObject)).rejects.toMatchObject({
      name: 'S3Error',
      status: 403,
      message: `S3 GetObject of ${key} failed: 403 AccessDenied`,
    });
    const slow = fakeFetch(() => new Response('<Error><Code>SlowDown</Code></Error>', { status: 503 }));
    await expect(signed.s3Read('the-bucket', key, slow.fetchObject)).rejects.toMatchObject({ name: 'ThrottlingException', status: 503 });
  });
});
