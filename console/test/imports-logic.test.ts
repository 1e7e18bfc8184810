import { describe, expect, it } from 'vitest';
import {
  canImportForReal,
  etaOf,
  fileProblem,
  jobOf,
  kindOf,
  MAX_IMPORT_BYTES,
  pollInterval,
  POLL_MS,
  progressOf,
  startBody,
  uploadFailureText,
  uploadTarget,
  type CreatedImport,
} from '../src/pages/imports/logic';
import { UploadError, uploadFile } from '../src/pages/imports/upload';

const PAGE = 'http://127.0.0.1:3000';

describe('where an import file is PUT', () => {
  it('resolves npm start’s path against the page’s origin and sends the page’s own credentials', () => {
    expect(uploadTarget('/local-uploads/imports/t/j.csv?expires=1&size=2&signature=s', PAGE)).toEqual({
      url: 'http://127.0.0.1:3000/local-uploads/imports/t/j.csv?expires=1&size=2&signature=s',
      credentials: 'same-origin',
    });
  });

  it('sends no cookie to S3, an absolute address of another origin', () => {
    const s3 = 'https://imports-bucket.s3.sa-east-1.amazonaws.com/imports/t/j.csv?X-Amz-Signature=abc';
    expect(uploadTarget(s3, 'https://console.example.com')).toEqual({ url: s3, credentials: 'omit' });
    // Same host, another port or scheme: another origin too.
    expect(uploadTarget('http://127.0.0.1:4000/x', PAGE).credentials).toBe('omit');
    expect(uploadTarget('https://127.0.0.1:3000/x', PAGE).credentials).toBe('omit');
  });

  it('keeps an absolute address of the page’s own origin same-origin', () => {
    expect(uploadTarget(`${PAGE}/local-uploads/a.csv`, `${PAGE}/console/imports`)).toEqual({ url: `${PAGE}/local-uploads/a.csv`, credentials: 'same-origin' });
  });

  it('follows only http(s) addresses', () => {
    expect(() => uploadTarget('javascript:alert(1)', PAGE)).toThrow(RangeError);
    expect(() => uploadTarget('data:text/csv,a', PAGE)).toThrow(RangeError);
  });
});

describe('the upload itself', () => {
  const link = {
    method: 'PUT' as const,
    url: 'https://bucket.s3.amazonaws.com/k?sig=1',
    headers: { 'content-type': 'text/csv' },
    expiresAt: '2026-11-26T15:00:00.000Z',
  };

  it('PUTs the bytes with the link’s headers, without cookies to another origin', async () => {
    const calls: [RequestInfo | URL, RequestInit | undefined][] = [];
    const file = new Blob(['Código;Descrição\nA;B\n'], { type: 'text/csv' });
    await uploadFile(link, file, {
      origin: 'https://console.example.com',
      fetch: (input, init) => {
        calls.push([input, init]);
        return Promise.resolve(new Response(null, { status: 200 }));
      },
    });
    expect(calls).toEqual([[link.url, { method: 'PUT', headers: { 'content-type': 'text/csv' }, body: file, credentials: 'omit', cache: 'no-store' }]]);
  });

  it('says why a refused upload was refused: S3’s message, or npm start’s text', async () => {
    const answering = (status: number, body: string) => ({ origin: PAGE, fetch: () => Promise.resolve(new Response(body, { status })) });
    const s3Error =
      '<?xml version="1.0"?><Error><Code>SignatureDoesNotMatch</Code><Message>The request signature we calculated does not match</Message></Error>';
    await expect(uploadFile(link, new Blob(['x']), answering(403, s3Error))).rejects.toEqual(
      new UploadError(403, 'The request signature we calculated does not match'),
    );
    await expect(uploadFile(link, new Blob(['x']), answering(403, 'The upload link has expired: start the import again'))).rejects.toMatchObject({
      status: 403,
      detail: 'The upload link has expired: start the import again',
    });
  });

  it('tells an unanswered upload apart (network, CORS)', async () => {
    const failing = { origin: PAGE, fetch: () => Promise.reject(new TypeError('Failed to fetch')) };
    await expect(uploadFile(link, new Blob(['x']), failing)).rejects.toMatchObject({ name: 'UploadError', status: undefined, detail: 'Failed to fetch' });
  });

  it('cuts a long answer to its first line and 300 characters', () => {
    expect(uploadFailureText('first\nsecond')).toBe('first');
    expect(uploadFailureText('x'.repeat(400))).toBe(`${'x'.repeat(300)}…`);
    expect(uploadFailureText('')).toBe('');
  });
});

describe('starting an import', () => {
  it('takes the kind from the link, suppliers otherwise', () => {
    expect(kindOf('kind=products')).toBe('products');
    expect(kindOf('?kind=suppliers')).toBe('suppliers');
    expect(kindOf('kind=warehouses')).toBe('suppliers');
    expect(kindOf('')).toBe('suppliers');
  });

  it('checks the file’s presence and size before sending anything', () => {
    expect(fileProblem(undefined)).toBe('missing');
    expect(fileProblem({ size: 0 })).toBe('empty');
    expect(fileProblem({ size: MAX_IMPORT_BYTES + 1 })).toBe('tooLarge');
    expect(fileProblem({ size: MAX_IMPORT_BYTES })).toBeUndefined();
    expect(fileProblem({ size: 1 })).toBeUndefined();
  });

  it('sends the file’s name (at most 200 characters) and its size in bytes', () => {
    expect(startBody('products', true, { name: 'produtos.csv', size: 48_213 })).toEqual({
      kind: 'products',
      dryRun: true,
      fileName: 'produtos.csv',
      size: 48_213,
    });
    expect(startBody('suppliers', false, { name: `${'a'.repeat(250)}.csv`, size: 3 })).toEqual({
      kind: 'suppliers',
      dryRun: false,
      fileName: 'a'.repeat(200),
      size: 3,
    });
  });

  it('keeps the job of POST’s answer without its upload link', () => {
    const created: CreatedImport = {
      ...job({ status: 'awaiting_upload' }),
      upload: { method: 'PUT', url: '/x', headers: {}, expiresAt: '2026-11-26T15:15:00.000Z' },
    };
    expect(jobOf(created)).toEqual(job({ status: 'awaiting_upload' }));
  });
});

function job(over: Partial<CreatedImport> = {}) {
  return {
    id: '3f0c9a52-7d41-4e8b-9c2a-5b6e1d0f8a34',
    kind: 'products' as const,
    dryRun: true,
    status: 'running' as const,
    fileName: 'produtos.csv',
    size: 120,
    totalRows: 500,
    rowsDone: 120,
    created: 118,
    existing: 1,
    refused: 1,
    errors: [{ line: 3, field: 'Código', message: 'is required' }],
    errorsTruncated: false,
    ignoredColumns: ['Preço'],
    failure: null,
    etaSeconds: 12,
    createdBy: { id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60', name: 'Ana Admin' },
    createdAt: '2026-11-26T15:00:00.000Z',
    startedAt: '2026-11-26T15:00:01.000Z',
    finishedAt: null,
    ...over,
  };
}

describe('following a job', () => {
  it('asks every second while the file is awaited or the rows run, and stops once it ends', () => {
    expect(pollInterval(job({ status: 'awaiting_upload' }))).toBe(POLL_MS);
    expect(pollInterval(job({ status: 'running' }))).toBe(POLL_MS);
    expect(pollInterval(job({ status: 'succeeded' }))).toBe(false);
    expect(pollInterval(job({ status: 'failed' }))).toBe(false);
    expect(pollInterval(undefined)).toBe(false);
    expect(POLL_MS).toBe(1000);
  });

  it('shows the rows done of the rows in the file, in whole percent, and nothing before the file is read', () => {
    expect(progressOf({ rowsDone: 120, totalRows: 500 })).toEqual({ done: 120, total: 500, percent: 24 });
    expect(progressOf({ rowsDone: 2, totalRows: 3 })).toEqual({ done: 2, total: 3, percent: 66 });
    expect(progressOf({ rowsDone: 3, totalRows: 3 })).toEqual({ done: 3, total: 3, percent: 100 });
    expect(progressOf({ rowsDone: 7, totalRows: 3 })).toEqual({ done: 3, total: 3, percent: 100 });
    expect(progressOf({ rowsDone: 0, totalRows: 0 })).toEqual({ done: 0, total: 0, percent: 100 });
    expect(progressOf({ rowsDone: 0, totalRows: null })).toBeUndefined();
  });

  it('says the time left in seconds, minutes, or hours and minutes', () => {
    expect(etaOf(null)).toBeUndefined();
    expect(etaOf(-1)).toBeUndefined();
    expect(etaOf(0)).toEqual({ unit: 'seconds', seconds: 1 });
    expect(etaOf(45)).toEqual({ unit: 'seconds', seconds: 45 });
    expect(etaOf(60)).toEqual({ unit: 'minutes', minutes: 1 });
    expect(etaOf(150)).toEqual({ unit: 'minutes', minutes: 3 });
    expect(etaOf(3569)).toEqual({ unit: 'minutes', minutes: 59 });
    expect(etaOf(3599)).toEqual({ unit: 'hours', hours: 1, minutes: 0 });
    expect(etaOf(3 * 3600 + 20 * 60)).toEqual({ unit: 'hours', hours: 3, minutes: 20 });
  });

  it('offers the real import only after a finished check that refused nothing, with the same file at hand', () => {
    const clean = job({ status: 'succeeded', refused: 0, errors: [] });
    const file = { name: 'produtos.csv', size: 120 };
    expect(canImportForReal(clean, file)).toBe(true);
    expect(canImportForReal(clean, undefined)).toBe(false);
    expect(canImportForReal(clean, { name: 'outro.csv', size: 120 })).toBe(false);
    expect(canImportForReal(clean, { name: 'produtos.csv', size: 121 })).toBe(false);
    expect(canImportForReal({ ...clean, refused: 1 }, file)).toBe(false);
    expect(canImportForReal({ ...clean, status: 'running' }, file)).toBe(false);
    expect(canImportForReal({ ...clean, status: 'failed' }, file)).toBe(false);
    expect(canImportForReal({ ...clean, dryRun: false }, file)).toBe(false);
  });
});
