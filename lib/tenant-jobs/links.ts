import { presignS3 } from '../aws/s3-presign';
import { config } from '../config';
import { localTenantJobFiles, type TenantJobFiles } from './files';
import { EXPORT_LINK_SECONDS } from './model';

/** What a route that shows an export needs of its files: the links to download them, nothing it reads or writes. */
export type TenantJobLinks = Pick<TenantJobFiles, 'downloadLink'>;

/** Presigned GETs of the imports bucket's objects: signed here (lib/aws/s3-presign), with no S3 client. */
export function s3TenantJobLinks(bucket: string): TenantJobLinks {
  return {
    downloadLink: async (key, nowMs) => ({
      url: await presignS3({ operation: 'GetObject', bucket, key, expiresInSeconds: EXPORT_LINK_SECONDS }),
      expiresAt: new Date(nowMs + EXPORT_LINK_SECONDS * 1000).toISOString(),
    }),
  };
}

/**
 * The download links the configuration names: the imports bucket's (deployed) or npm start's
 * folder's. Apart from `tenantJobFiles` so that the routes that only show an export bundle no
 * S3 client (docs/architecture.md, "Cold-start conventions").
 */
export function tenantJobLinks(): TenantJobLinks {
  const { IMPORT_BUCKET, IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR } = config();
  if (IMPORT_BUCKET) return s3TenantJobLinks(IMPORT_BUCKET);
  if (IMPORT_UPLOAD_SECRET && IMPORT_UPLOAD_DIR) return localTenantJobFiles(IMPORT_UPLOAD_SECRET, IMPORT_UPLOAD_DIR);
  throw new Error('Invalid configuration: IMPORT_BUCKET, or IMPORT_UPLOAD_SECRET and IMPORT_UPLOAD_DIR, is required for the tenant jobs');
}
