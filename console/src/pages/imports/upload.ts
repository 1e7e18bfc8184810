import { uploadFailureText, uploadTarget, type UploadLink } from './logic';

/** The PUT of an import's file was refused (`status`) or got no answer (`status` undefined). */
export class UploadError extends Error {
  constructor(
    readonly status: number | undefined,
    readonly detail: string,
  ) {
    super(status === undefined ? `upload not answered: ${detail}` : `upload refused (${status}): ${detail}`);
    this.name = 'UploadError';
  }
}

export interface UploadDeps {
  fetch: typeof fetch;
  /** The page's origin, which a path of `npm start` is resolved against. */
  origin: string;
}

const browserDeps = (): UploadDeps => ({ fetch: (input, init) => fetch(input, init), origin: window.location.origin });

/**
 * PUTs the file's bytes where POST /imports said, with its headers as they are. This is not a
 * call to the API (deployed it goes to S3), so it is a plain fetch and not the typed client:
 * no cookie goes to another origin, no refresh on 401, no Origin check of the API's.
 */
export async function uploadFile(link: UploadLink, file: Blob, deps: UploadDeps = browserDeps()): Promise<void> {
  const { url, credentials } = uploadTarget(link.url, deps.origin);
  let response: Response;
  try {
    response = await deps.fetch(url, { method: link.method, headers: link.headers, body: file, credentials, cache: 'no-store' });
  } catch (error) {
    throw new UploadError(undefined, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw new UploadError(response.status, uploadFailureText(await response.text().catch(() => '')));
}
