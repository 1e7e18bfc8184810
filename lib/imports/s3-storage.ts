import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ImportStorage } from './storage';
import { importFileKey } from './storage';
import { UPLOAD_LINK_SECONDS } from './model';

let client: S3Client | undefined;
const s3 = () => (client ??= new S3Client({}));

/**
 * The deployed storage: a presigned PUT to the bucket, signed for the job's key, its size
 * (Content-Length is a signed header, so S3 refuses another size) and text/csv, valid
 * UPLOAD_LINK_SECONDS.
 */
export function s3ImportStorage(bucket: string): ImportStorage {
  return {
    uploadLink: async (job, nowMs) => {
      const command = new PutObjectCommand({ Bucket: bucket, Key: importFileKey(job), ContentLength: job.size, ContentType: 'text/csv' });
      const url = await getSignedUrl(s3(), command, { expiresIn: UPLOAD_LINK_SECONDS, signableHeaders: new Set(['content-length', 'content-type']) });
      return { method: 'PUT', url, headers: { 'content-type': 'text/csv' }, expiresAt: new Date(nowMs + UPLOAD_LINK_SECONDS * 1000).toISOString() };
    },
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
