import { presignS3 } from '../aws/s3-presign';
import type { DownloadOptions, FileLink, UploadLink, UploadOptions } from './files';

/**
 * What the file store does on S3 with signed requests alone, without the S3 client
 * (lib/aws/s3-presign; docs/decisions.md, "Presigned links without the S3 client"): hand out
 * links, and read an object by one signed GET (the import worker reads one object a job and
 * writes none: the client was 160 KB of its 604 KB).
 */

/** How long a read's own link lives: it is used at once, by the function that signed it. */
const READ_LINK_SECONDS = 60;

export async function s3DownloadLink(bucket: string, key: string, options: DownloadOptions, nowMs: number): Promise<FileLink> {
  const query: Record<string, string> = {};
  if (options.fileName) query['response-content-disposition'] = `attachment; filename="${options.fileName}"`;
  if (options.contentType) query['response-content-type'] = options.contentType;
  const url = await presignS3({ operation: 'GetObject', bucket, key, expiresInSeconds: options.seconds, ...(Object.keys(query).length > 0 ? { query } : {}) });
  return { url, expiresAt: new Date(nowMs + options.seconds * 1000).toISOString() };
}

/** A PUT signed for the key, the size (Content-Length is a signed header, so S3 refuses another size) and the type. */
export async function s3UploadLink(bucket: string, key: string, options: UploadOptions, nowMs: number): Promise<UploadLink> {
  const url = await presignS3({
    operation: 'PutObject',
    bucket,
    key,
    expiresInSeconds: options.seconds,
    signedHeaders: { 'content-length': String(options.size), 'content-type': options.contentType },
  });
  return { method: 'PUT', url, headers: { 'content-type': options.contentType }, expiresAt: new Date(nowMs + options.seconds * 1000).toISOString() };
}

export async function s3Read(bucket: string, key: string, fetchObject: typeof fetch = fetch): Promise<Uint8Array | undefined> {
  const url = await presignS3({ operation: 'GetObject', bucket, key, expiresInSeconds: READ_LINK_SECONDS });
  const response = await fetchObject(url, { signal: AbortSignal.timeout(60_000) });
  if (response.status === 404) {
    await response.body?.cancel();
    return undefined;
  }
  if (!response.ok) {
    // S3's error document names its code (<Code>AccessDenied</Code>); read as text, never parsed as XML.
    const code = /<Code>([A-Za-z]{1,64})<\/Code>/.exec((await response.text()).slice(0, 2048))?.[1] ?? 'unknown';
    throw Object.assign(new Error(`S3 GetObject of ${key} failed: ${response.status} ${code}`), {
      name: code === 'SlowDown' ? 'ThrottlingException' : 'S3Error',
      status: response.status,
    });
  }
  return new Uint8Array(await response.arrayBuffer());
}
