import { presignS3 } from '../aws/s3-presign';
import { s3UploadLinks } from './s3-upload-links';
import type { ImportStorage } from './storage';
import { importFileKey } from './storage';

/** How long the worker's own read link lives: it is used at once, by the worker that signed it. */
const READ_LINK_SECONDS = 60;

/**
 * The deployed storage: the upload link (./s3-upload-links), and the file read from the bucket
 * (the worker's) by one signed GET. The worker reads one object a job and writes none: a GET
 * signed with the signer the SDK itself uses (lib/aws/s3-presign) does it without the S3 client,
 * which was 160 KB of the worker's 604 KB (docs/decisions.md, "Presigned links without the S3 client").
 */
export function s3ImportStorage(bucket: string, fetchObject: typeof fetch = fetch): ImportStorage {
  return {
    ...s3UploadLinks(bucket),
    read: async (job) => {
      const url = await presignS3({ operation: 'GetObject', bucket, key: importFileKey(job), expiresInSeconds: READ_LINK_SECONDS });
      const response = await fetchObject(url, { signal: AbortSignal.timeout(60_000) });
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      if (!response.ok) {
        // S3's error document names its code (<Code>AccessDenied</Code>); read as text, never parsed as XML.
        const code = /<Code>([A-Za-z]{1,64})<\/Code>/.exec((await response.text()).slice(0, 2048))?.[1] ?? 'unknown';
        throw Object.assign(new Error(`S3 GetObject of the import file failed: ${response.status} ${code}`), {
          name: code === 'SlowDown' ? 'ThrottlingException' : 'S3Error',
          status: response.status,
        });
      }
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}
