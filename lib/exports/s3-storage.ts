import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ExportFiles } from './engine';
import { exportFileKey } from './storage';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({}));

/**
 * The worker's deployed storage. A file is one multipart upload (lib-storage's Upload: 5 MB
 * parts, four in flight) fed by a stream the rows are written to, so its size need not be known
 * first and it is never whole in memory; an aborted one leaves no object (and the bucket's rule
 * removes parts left by a worker that died). Apart from the download links
 * (./s3-downloads), so that GET /exports/{id} does not bundle lib-storage.
 */
export function s3ExportFiles(bucket: string): ExportFiles {
  return {
    create: (job) => {
      const body = new PassThrough();
      const upload = new Upload({ client: s3(), params: { Bucket: bucket, Key: exportFileKey(job), Body: body, ContentType: 'text/csv; charset=utf-8' } });
      const done = upload.done();
      // Seen by `end` or `abort`; without this, a failed part would be an unhandled rejection until then.
      done.catch(() => undefined);
      return {
        write: async (text) => {
          // Wait for the upload to take more; an upload that failed meanwhile fails the write (it would never drain).
          if (!body.write(text)) await Promise.race([once(body, 'drain'), done.then(() => undefined)]);
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
  };
}
