import { presignS3 } from '../aws/s3-presign';
import { UPLOAD_LINK_SECONDS } from './model';
import { importFileKey, type ImportStorage } from './storage';

/**
 * The deployed upload link: a presigned PUT to the bucket, signed for the job's key, its size
 * (Content-Length is a signed header, so S3 refuses another size) and text/csv, valid
 * UPLOAD_LINK_SECONDS. Signed without the S3 client (lib/aws/s3-presign): POST /imports only
 * hands the link out, and the worker, which reads the file, is the one that carries the client.
 */
export function s3UploadLinks(bucket: string): Pick<ImportStorage, 'uploadLink'> {
  return {
    uploadLink: async (job, nowMs) => {
      const url = await presignS3({
        operation: 'PutObject',
        bucket,
        key: importFileKey(job),
        expiresInSeconds: UPLOAD_LINK_SECONDS,
        signedHeaders: { 'content-length': String(job.size), 'content-type': 'text/csv' },
      });
      return { method: 'PUT', url, headers: { 'content-type': 'text/csv' }, expiresAt: new Date(nowMs + UPLOAD_LINK_SECONDS * 1000).toISOString() };
    },
  };
}
