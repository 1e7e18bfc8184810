import { afterEach, describe, expect, it, vi } from 'vitest';
import { runImport } from '../../lib/imports/engine';
import type * as Engine from '../../lib/imports/engine';
import { IMPORT_MAX_RECEIVES } from '../../lib/imports/model';
import { findImportJob } from '../../lib/imports/repository';
import type * as Repository from '../../lib/imports/repository';
import { runRedelivered } from '../../local/imports';

// The engine runs against DynamoDB Local in test/integration/imports.test.ts; here its runs fail or end as told.
vi.mock('../../lib/imports/engine', async (original) => ({ ...(await original<typeof Engine>()), runImport: vi.fn() }));
vi.mock('../../lib/imports/repository', async (original) => ({ ...(await original<typeof Repository>()), findImportJob: vi.fn() }));

const ref = { tenantId: 't', id: 'job' };
const files = { read: () => Promise.resolve(new Uint8Array()) };

afterEach(() => {
  vi.mocked(runImport).mockReset();
  vi.mocked(findImportJob).mockReset();
});

describe("npm start's imports, as the deployed queue redelivers a failed step", () => {
  it('sends a failed step again from the row the job has reached, and ends when a run gets through', async () => {
    vi.mocked(runImport)
      .mockRejectedValueOnce(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }))
      .mockRejectedValueOnce(new Error('timed out'))
      .mockResolvedValueOnce(undefined);
    vi.mocked(findImportJob)
      .mockResolvedValueOnce({ nextRow: 500 } as Awaited<ReturnType<typeof findImportJob>>)
      .mockResolvedValueOnce({ nextRow: 1000 } as Awaited<ReturnType<typeof findImportJob>>);
    const lines: string[] = [];
    await expect(runRedelivered(ref, 0, files, (line) => lines.push(line), 0)).resolves.toBe(true);
    expect(vi.mocked(runImport).mock.calls.map((call) => call[2])).toEqual([0, 500, 1000]);
    expect(lines.map((line) => line.split(':')[0])).toEqual([
      `[imports] job failed (receive 1 of ${IMPORT_MAX_RECEIVES}), sent again`,
      `[imports] job failed (receive 2 of ${IMPORT_MAX_RECEIVES}), sent again`,
    ]);
  });

  it('leaves the job running after as many runs as the queue receives a message, saying so', async () => {
    vi.mocked(runImport).mockRejectedValue(new Error('down'));
    vi.mocked(findImportJob).mockResolvedValue({ nextRow: 0 } as Awaited<ReturnType<typeof findImportJob>>);
    const lines: string[] = [];
    await expect(runRedelivered(ref, 0, files, (line) => lines.push(line), 0)).resolves.toBe(false);
    expect(runImport).toHaveBeenCalledTimes(IMPORT_MAX_RECEIVES);
    expect(lines.at(-1)).toMatch(/^\[imports\] job failed 5 times, left running as in the dead-letter queue: Error: down/);
  });
});
