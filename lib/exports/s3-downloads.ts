import { presignS3 } from '../aws/s3-presign';
import { DOWNLOAD_LINK_SECONDS } from './model';
import { attachment, exportFileKey, type ExportDownloads } from './storage';

/**
 * Deployed download links: a presigned GET of the job's key, valid DOWNLOAD_LINK_SECONDS,
 * answered as an attachment named for the job. Signed without the S3 client (lib/aws/s3-presign):
 * GET /exports/{id} only hands the link out.
 */
export function s3ExportDownloads(bucket: string): ExportDownloads {
  return {
    downloadLink: async (job, fileName, nowMs) => {
      const url = await presignS3({
        operation: 'GetObject',
        bucket,
        key: exportFileKey(job),
        expiresInSeconds: DOWNLOAD_LINK_SECONDS,
        query: { 'response-content-disposition': attachment(fileName), 'response-content-type': 'text/csv; charset=utf-8' },
      });
      return { url, expiresAt: new Date(nowMs + DOWNLOAD_LINK_SECONDS * 1000).toISOString(), fileName };
    },
  };
}
