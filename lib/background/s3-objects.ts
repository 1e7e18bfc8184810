import { DeleteObjectsCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** What the file store does on S3 with the client: write a whole object, remove a folder's. One client per process. */
let client: S3Client | undefined;
export const s3 = (): S3Client => (client ??= new S3Client({}));

export async function s3Put(bucket: string, key: string, body: Uint8Array | string, contentType: string): Promise<void> {
  await s3().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
}

export async function s3RemoveFolder(bucket: string, prefix: string): Promise<number> {
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
}
