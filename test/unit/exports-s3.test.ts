import { AbortMultipartUploadCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { s3ExportDownloads } from '../../lib/exports/s3-downloads';
import { s3ExportFiles } from '../../lib/exports/s3-storage';

/** The deployed storage of the exports against a mocked S3: the file as one upload, and the presigned download. */

const s3 = mockClient(S3Client);
const job = { tenantId: '11111111-1111-4111-8111-111111111111', id: '22222222-2222-4222-8222-222222222222' };

beforeAll(() => {
  process.env.AWS_REGION ??= 'sa-east-1';
  process.env.AWS_ACCESS_KEY_ID ??= 'AKIAEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'secret';
});
afterEach(() => s3.reset());
// The unit project shares its workers between files: S3Client is left as it was.
afterAll(() => s3.restore());

describe('the export file on S3', () => {
  it('writes the chunks as one object under exports/<tenant>/<job>.csv, as UTF-8 CSV', async () => {
    s3.on(PutObjectCommand).resolves({});
    const writer = s3ExportFiles('the-bucket').create(job);
    await writer.write('\uFEFFNome\r\n');
    await writer.write('Açúcar\r\n');
    await writer.end();
    const [call] = s3.commandCalls(PutObjectCommand);
    const input = call?.args[0].input;
    expect({ Bucket: input?.Bucket, Key: input?.Key, ContentType: input?.ContentType }).toEqual({
      Bucket: 'the-bucket',
      Key: `exports/${job.tenantId}/${job.id}.csv`,
      ContentType: 'text/csv; charset=utf-8',
    });
    expect(Buffer.from(input?.Body as Uint8Array).toString('utf8')).toBe('\uFEFFNome\r\nAçúcar\r\n');
  });

  it('fails the end when S3 refuses the upload, and an abort then throws nothing', async () => {
    s3.on(PutObjectCommand).rejects(new Error('AccessDenied'));
    s3.on(AbortMultipartUploadCommand).resolves({});
    const writer = s3ExportFiles('the-bucket').create(job);
    await writer.write('Nome\r\n');
    await expect(writer.end()).rejects.toThrow('AccessDenied');
    await expect(writer.abort()).resolves.toBeUndefined();
  });
});

describe('the download link', () => {
  it('presigns a GET of the file for 15 minutes, answered as an attachment named for the job', async () => {
    const nowMs = Date.parse('2026-11-26T12:00:00.000Z');
    const link = await s3ExportDownloads('the-bucket').downloadLink(job, 'fornecedores-2026-11-26.csv', nowMs);
    const url = new URL(link.url);
    expect([url.hostname.startsWith('the-bucket.s3.'), url.pathname]).toEqual([true, `/exports/${job.tenantId}/${job.id}.csv`]);
    expect({
      expires: url.searchParams.get('X-Amz-Expires'),
      disposition: url.searchParams.get('response-content-disposition'),
      type: url.searchParams.get('response-content-type'),
      signed: url.searchParams.has('X-Amz-Signature'),
    }).toEqual({ expires: '900', disposition: 'attachment; filename="fornecedores-2026-11-26.csv"', type: 'text/csv; charset=utf-8', signed: true });
    expect({ expiresAt: link.expiresAt, fileName: link.fileName }).toEqual({ expiresAt: '2026-11-26T12:15:00.000Z', fileName: 'fornecedores-2026-11-26.csv' });
  });
});
