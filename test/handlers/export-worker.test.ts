import type { SQSEvent } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXPORT_MAX_RECEIVES } from '../../lib/exports/model';

/**
 * The export worker on the partial-batch consumer: a run that fails returns its message to
 * the queue, and only on its last receive is the job marked failed (the user is not left
 * waiting on it); a failure to mark it is logged, never thrown.
 */
const engine = vi.hoisted(() => ({ runExport: vi.fn(), failExport: vi.fn() }));
vi.mock('../../lib/exports/engine', () => engine);
vi.mock('../../lib/exports/storage', () => ({ exportFiles: () => ({}) }));

const { handler } = await import('../../functions/exports/export-worker');
const { logger } = await import('../../lib/log');

const message = { type: 'export-run', tenantId: '11111111-1111-4111-8111-111111111111', exportId: '22222222-2222-4222-8222-222222222222' };
const event = (receives: number): SQSEvent =>
  ({ Records: [{ messageId: 'm-1', body: JSON.stringify(message), attributes: { ApproximateReceiveCount: String(receives) } }] }) as unknown as SQSEvent;

afterEach(() => {
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

describe('the export worker', () => {
  it('runs the export the message names and returns nothing to the queue', async () => {
    engine.runExport.mockResolvedValue(undefined);
    expect(await handler(event(1))).toEqual({ batchItemFailures: [] });
    expect(engine.runExport).toHaveBeenCalledWith({ tenantId: message.tenantId, id: message.exportId }, expect.objectContaining({ files: {} }));
    expect(engine.failExport).not.toHaveBeenCalled();
  });

  it('returns a failed run to the queue without marking the job before its last receive', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    engine.runExport.mockRejectedValue(new Error('store down'));
    expect(await handler(event(EXPORT_MAX_RECEIVES - 1))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(engine.failExport).not.toHaveBeenCalled();
  });

  it('marks the job failed on its last receive, and still returns the message (to the dead-letter queue)', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    engine.runExport.mockRejectedValue(new Error('store down'));
    engine.failExport.mockResolvedValue(undefined);
    expect(await handler(event(EXPORT_MAX_RECEIVES))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(engine.failExport).toHaveBeenCalledWith({ tenantId: message.tenantId, id: message.exportId }, expect.any(Number));
  });

  it('logs a failure to mark the job and answers as before', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    engine.runExport.mockRejectedValue(new Error('store down'));
    engine.failExport.mockRejectedValue(new Error('still down'));
    expect(await handler(event(EXPORT_MAX_RECEIVES))).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }] });
    expect(errors.mock.calls.map(([text]) => text)).toEqual([
      'export not written: the queue will run it again, or give up on it at its last receive',
      'export not written: the queue gives up on it',
      'the failure of a queue message not recorded',
    ]);
  });
});
