import { PassThrough } from 'node:stream';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DOWNLOAD_LINK_SECONDS } from './model';
import { attachment, exportFileKey, type ExportStorage } from './storage';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({}));

/**
 * The deployed storage. A file is one multipart upload (lib-storage's Upload: 5 MB parts, four
 * in flight) fed by a stream the rows are written to, so its size need not be known first and
 * it is never whole in memory; an aborted one leaves no object (and the bucket's rule removes
 * parts left by a worker that died). A download is a presigned GET of the job's key, valid
 * DOWNLOAD_LINK_SECONDS, that answers it as an attachment named for the job.
 */
export function s3ExportStorage(bucket: string): ExportStorage {
  return {
    create: (job) => {
      const body = new PassThrough();
      const upload = new Upload({ client: s3(), params: { Bucket: bucket, Key: exportFileKey(job), Body: body, ContentType: 'text/csv; charset=utf-8' } });
      const done = upload.done();
      // Seen by `end` or `abort`; without this, a failed part would be an unhandled rejection until then.
      done.catch(() => undefined);
      return {
        write: async (text) => {
          if (!body.write(text)) await new Promise((resolve) => body.once('drain', resolve));
        },
        end: async () => {
          body.end();
          await done;
        },
        abort: async () => {
          await upload.abort().catch(() => undefined);
          body.destroy();
        },
      };
    },
    downloadLink: async (job, fileName, nowMs) => {
      const command = new GetObjectCommand({ Bucket: bucket, Key: exportFileKey(job), ResponseContentDisposition: attachment(fileName), ResponseContentType: 'text/csv; charset=utf-8' });
      const url = await getSignedUrl(s3(), command, { expiresIn: DOWNLOAD_LINK_SECONDS });
      return { url, expiresAt: new Date(nowMs + DOWNLOAD_LINK_SECONDS * 1000).toISOString(), fileName };
    },
  };
}
