import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { presignS3 as PresignS3 } from '../../lib/aws/s3-presign';

/**
 * The links signed without the S3 client are the SDK presigner's, byte for byte, for the same
 * credentials, region and instant: a GET with response overrides (an export's download) and a
 * PUT signed for its size and type (an import's upload), keys with spaces and parentheses
 * included. The SDK's client is set not to add its default checksums, which a presigned PUT
 * cannot carry (they would be the empty body's, and S3 would refuse the file).
 */
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'token/with+chars=' };
const AT = new Date('2026-11-28T12:00:00Z');
const saved = { ...process.env };

/** The signer as a fresh module: its credential provider keeps the first credentials it read, and the unit project's workers run other files first. */
let presignS3: typeof PresignS3;

beforeEach(async () => {
  process.env.AWS_ACCESS_KEY_ID = CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = CREDENTIALS.secretAccessKey;
  process.env.AWS_SESSION_TOKEN = CREDENTIALS.sessionToken;
  vi.resetModules();
  ({ presignS3 } = await import('../../lib/aws/s3-presign'));
});
afterEach(() => {
  process.env = { ...saved };
});

const sdk = new S3Client({
  region: 'sa-east-1',
  credentials: CREDENTIALS,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});

describe('presignS3', () => {
  it("signs a download as the SDK's presigner does", async () => {
    const key = 'exports/3f1c/movimentacoes (1) de novembro.csv';
    const disposition = 'attachment; filename="movimentações.csv"';
    const expected = await getSignedUrl(
      sdk,
      new GetObjectCommand({ Bucket: 'backoffice-files', Key: key, ResponseContentDisposition: disposition, ResponseContentType: 'text/csv; charset=utf-8' }),
      { expiresIn: 900, signingDate: AT },
    );
    const url = await presignS3(
      {
        operation: 'GetObject',
        bucket: 'backoffice-files',
        key,
        expiresInSeconds: 900,
        query: { 'response-content-disposition': disposition, 'response-content-type': 'text/csv; charset=utf-8' },
        signingDate: AT,
      },
      'sa-east-1',
    );
    expect(url).toBe(expected);
  });

  it("signs an upload for its size and type as the SDK's presigner does", async () => {
    const expected = await getSignedUrl(
      sdk,
      new PutObjectCommand({ Bucket: 'backoffice-files', Key: 'imports/t/j.csv', ContentLength: 48_213, ContentType: 'text/csv' }),
      {
        expiresIn: 900,
        signingDate: AT,
        signableHeaders: new Set(['content-length', 'content-type']),
      },
    );
    const url = await presignS3(
      {
        operation: 'PutObject',
        bucket: 'backoffice-files',
        key: 'imports/t/j.csv',
        expiresInSeconds: 900,
        signedHeaders: { 'content-length': '48213', 'content-type': 'text/csv' },
        signingDate: AT,
      },
      'sa-east-1',
    );
    expect(url).toBe(expected);
    expect(new URL(url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host');
  });

  it('refuses to sign without a region', async () => {
    await expect(presignS3({ operation: 'GetObject', bucket: 'b', key: 'k', expiresInSeconds: 60 }, '')).rejects.toThrow('AWS_REGION is not set');
  });
});
