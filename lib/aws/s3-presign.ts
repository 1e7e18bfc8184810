import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SourceData } from '@smithy/types';

/**
 * Presigned S3 links without the S3 client: the routes that only hand out a link (an import's
 * upload, an export's download) signed it with `@aws-sdk/s3-request-presigner`, which brings
 * the whole S3 client into their bundles and their cold start (about 100 KB, and 1.5 to 1.7
 * times the floor). A presigned link is one SigV4 signature of a request that is never sent:
 * `@smithy/signature-v4`, the signer the SDK itself uses, makes exactly the URL the presigner
 * makes (test/unit/s3-presign.test.ts compares them), from the same credentials (the
 * environment's on Lambda, test/unit too), in the same virtual-hosted style.
 */

/** SHA-256 and HMAC-SHA-256 on node:crypto, in the shape the signer takes. */
const bytesOf = (data: SourceData): string | Uint8Array =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

class Sha256 {
  private hash: Hash | Hmac;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh(): Hash | Hmac {
    return this.secret === undefined ? createHash('sha256') : createHmac('sha256', bytesOf(this.secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

let signer: { region: string; sign: SignatureV4 } | undefined;
const credentials = defaultProvider();
function s3Signer(region: string): SignatureV4 {
  if (signer?.region !== region)
    signer = { region, sign: new SignatureV4({ service: 's3', region, credentials, sha256: Sha256, uriEscapePath: false, applyChecksum: false }) };
  return signer.sign;
}

/** The S3 operation a link is for: its name (the SDK's `x-id`), method, and what it signs beside the host. */
export interface S3LinkRequest {
  operation: 'GetObject' | 'PutObject';
  bucket: string;
  key: string;
  expiresInSeconds: number;
  /** Query parameters of the operation (`response-content-disposition`, ...). */
  query?: Record<string, string>;
  /** Headers the link is signed for: the uploader must send them as they are (content-length, content-type). */
  signedHeaders?: Record<string, string>;
  /** The signing instant (tests); now by default. */
  signingDate?: Date;
}

/** Each segment of the key escaped as S3 (and the SDK) does, its slashes kept. */
const escapeKey = (key: string) =>
  key
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');

/** A presigned URL of `request` in AWS_REGION. */
export async function presignS3(request: S3LinkRequest, region = process.env.AWS_REGION ?? ''): Promise<string> {
  if (!region) throw new Error('AWS_REGION is not set: an S3 link cannot be signed');
  const hostname = `${request.bucket}.s3.${region}.amazonaws.com`;
  const headers: Record<string, string> = { host: hostname, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD', ...request.signedHeaders };
  const signed = await s3Signer(region).presign(
    {
      method: request.operation === 'GetObject' ? 'GET' : 'PUT',
      protocol: 'https:',
      hostname,
      path: `/${escapeKey(request.key)}`,
      query: { ...request.query, 'x-id': request.operation },
      headers,
    },
    {
      expiresIn: request.expiresInSeconds,
      signableHeaders: new Set(Object.keys(request.signedHeaders ?? {})),
      unhoistableHeaders: new Set(Object.keys(request.signedHeaders ?? {})),
      ...(request.signingDate ? { signingDate: request.signingDate } : {}),
    },
  );
  const query = Object.entries(signed.query ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`)
    .join('&');
  return `https://${hostname}${signed.path}?${query}`;
}
