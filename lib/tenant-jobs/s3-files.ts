import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { TenantJobFiles } from './files';
import { s3TenantJobLinks } from './links';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({}));

/** The deployed files: objects of the imports bucket, downloads by presigned GET. */
export function s3TenantJobFiles(bucket: string): TenantJobFiles {
  return {
    put: async (key, body, contentType) => {
      await s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
    },
    read: async (key) => {
      try {
        const object = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return object.Body ? await object.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
    ...s3TenantJobLinks(bucket),
    removeFolder: async (prefix) => {
      let removed = 0;
      let token: string | undefined;
      do {
        const page = await s3().send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        const objects = (page.Contents ?? []).flatMap((object) => (object.Key ? [{ Key: object.Key }] : []));
        if (objects.length > 0) await s3().send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }));
        removed += objects.length;
        token = page.NextContinuationToken;
      } while (token);
      return removed;
    },
  };
}
