import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { s3ImportStorage as S3ImportStorage } from '../../lib/imports/s3-storage';

/**
 * The import worker reads its file from the bucket by one signed GET, without the S3 client:
 * the request it sends, the bytes it returns, a missing file, and S3's refusals.
 */
const job = { tenantId: '11111111-1111-4111-8111-111111111111', id: '22222222-2222-4222-8222-222222222222' };
const saved = { ...process.env };

let s3ImportStorage: typeof S3ImportStorage;

beforeEach(async () => {
  process.env.AWS_REGION = 'sa-east-1';
  process.env.AWS_ACCESS_KEY_ID = 'AKIAEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'secret';
  process.env.AWS_SESSION_TOKEN = 'session-token';
  // Fresh modules: the signer keeps the credentials it first read, and another test file of this worker may have read others.
  vi.resetModules();
  ({ s3ImportStorage } = await import('../../lib/imports/s3-storage'));
});
afterEach(() => {
  process.env = { ...saved };
});

/** A fetch that answers `response` and keeps what it was asked. */
function fakeFetch(response: () => Response) {
  const asked: string[] = [];
  const fetchObject = (async (input: string) => {
    asked.push(input);
    return response();
  }) as typeof fetch;
  return { asked, fetchObject };
}

describe('the import file read from S3', () => {
  it("GETs the job's key from the bucket with a SigV4 query signature of a minute, and returns the bytes", async () => {
    const body = new TextEncoder().encode('sku;nome\r\nA-1;Açúcar\r\n');
    const { asked, fetchObject } = fakeFetch(() => new Response(body, { status: 200 }));
    const read = await s3ImportStorage('the-bucket', fetchObject).read(job as never);
    expect(read).toEqual(body);
    expect(asked).toHaveLength(1);
    const url = new URL(asked[0] as string);
    expect(`${url.origin}${url.pathname}`).toBe(`https://the-bucket.s3.sa-east-1.amazonaws.com/imports/${job.tenantId}/${job.id}.csv`);
    expect(Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'X-Amz-Signature' && name !== 'X-Amz-Date'))).toEqual({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
      'X-Amz-Credential': expect.stringMatching(/^AKIAEXAMPLE\/\d{8}\/sa-east-1\/s3\/aws4_request$/),
      'X-Amz-Expires': '60',
      'X-Amz-Security-Token': 'session-token',
      'X-Amz-SignedHeaders': 'host',
      'x-id': 'GetObject',
    });
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers no file when S3 has none (404)', async () => {
    const { fetchObject } = fakeFetch(() => new Response('<Error><Code>NoSuchKey</Code></Error>', { status: 404 }));
    await expect(s3ImportStorage('the-bucket', fetchObject).read(job as never)).resolves.toBeUndefined();
  });

  it("throws S3's refusal with its code, a throttle as one", async () => {
    const denied = fakeFetch(
      () => new Response('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>', { status: 403 }),
    );
    await expect(s3ImportStorage('the-bucket', denied.fetchObject).read(job as never)).rejects.toMatchObject({
      name: 'S3Error',
      status: 403,
      message: 'S3 GetObject of the import file failed: 403 AccessDenied',
    });
    const slow = fakeFetch(() => new Response('<Error><Code>SlowDown</Code></Error>', { status: 503 }));
    await expect(s3ImportStorage('the-bucket', slow.fetchObject).read(job as never)).rejects.toMatchObject({ name: 'ThrottlingException', status: 503 });
  });
});
