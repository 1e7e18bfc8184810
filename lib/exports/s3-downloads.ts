import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DOWNLOAD_LINK_SECONDS } from './model';
import { attachment, exportFileKey, type ExportDownloads } from './storage';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({}));

/** Deployed download links: a presigned GET of the job's key, valid DOWNLOAD_LINK_SECONDS, answered as an attachment named for the job. */
export function s3ExportDownloads(bucket: string): ExportDownloads {
  return {
    downloadLink: async (job, fileName, nowMs) => {
      const command = new GetObjectCommand({ Bucket: bucket, Key: exportFileKey(job), ResponseContentDisposition: attachment(fileName), ResponseContentType: 'text/csv; charset=utf-8' });
      const url = await getSignedUrl(s3(), command, { expiresIn: DOWNLOAD_LINK_SECONDS });
      return { url, expiresAt: new Date(nowMs + DOWNLOAD_LINK_SECONDS * 1000).toISOString(), fileName };
    },
  };
}
