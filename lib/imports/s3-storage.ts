import { GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { s3UploadLinks } from './s3-upload-links';
import type { ImportStorage } from './storage';
import { importFileKey } from './storage';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({}));

/** The deployed storage: the upload link (./s3-upload-links), and the file read from the bucket (the worker's). */
export function s3ImportStorage(bucket: string): ImportStorage {
  return {
    ...s3UploadLinks(bucket),
    read: async (job) => {
      try {
        const object = await s3().send(new GetObjectCommand({ Bucket: bucket, Key: importFileKey(job) }));
        return object.Body ? await object.Body.transformToByteArray() : undefined;
      } catch (error) {
        if (error instanceof NoSuchKey) return undefined;
        throw error;
      }
    },
  };
}
