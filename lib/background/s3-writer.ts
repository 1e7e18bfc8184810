import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FileWriter } from './files';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({}));

/**
 * A file written to S3 as it is produced: one multipart upload (lib-storage's Upload: 5 MB
 * parts, four in flight) fed by a stream, so its size need not be known first and it is never
 * whole in memory; an aborted one leaves no object (and the bucket's rule removes parts left
 * by a function that died). Its own module: only the export worker bundles lib-storage.
 */
export function s3Writer(bucket: string, key: string, contentType: string): FileWriter {
  const body = new PassThrough();
  const upload = new Upload({ client: s3(), params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType } });
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
}
