import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consumeBatch } from '../../lib/background/batch';
import { logger } from '../../lib/log';

const record = (messageId: string, body: string, receives = 1): SQSRecord =>
  ({ messageId, body, attributes: { ApproximateReceiveCount: String(receives) } }) as unknown as SQSRecord;
const event = (...records: SQSRecord[]): SQSEvent => ({ Records: records });

afterEach(() => vi.restoreAllMocks());

describe('the partial-batch consumer of the queue workers', () => {
  it('answers no failure when every record is handled, each with its parsed body, one after the other', async () => {
    const seen: string[] = [];
    const answer = await consumeBatch<{ n: number }>(
      event(record('a', '{"n":1}'), record('b', '{"n":2}')),
      async (message, { messageId }) => {
        seen.push(`start ${messageId} ${message.n}`);
        await Promise.resolve();
        seen.push(`end ${messageId}`);
      },
      { failure: 'not done' },
    );
    expect(answer).toEqual({ batchItemFailures: [] });
    expect(seen).toEqual(['start a 1', 'end a', 'start b 2', 'end b']);
  });

  it('handles the records side by side when asked', async () => {
    const seen: string[] = [];
    await consumeBatch(
      event(record('a', '1'), record('b', '2')),
      async (_message, { messageId }) => {
        seen.push(`start ${messageId}`);
        await Promise.resolve();
        seen.push(`end ${messageId}`);
      },
      { parallel: true, failure: 'not done' },
    );
    expect(seen).toEqual(['start a', 'start b', 'end a', 'end b']);
  });

  it('returns only the failed records to the queue, a body that is not JSON among them, and logs each', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const answer = await consumeBatch<{ fail?: boolean }>(
      event(record('ok', '{}'), record('bad-json', '{'), record('throws', '{"fail":true}')),
      async (message) => {
        if (message.fail) throw new Error('boom');
      },
      { failure: 'step not done' },
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad-json' }, { itemIdentifier: 'throws' }] });
    expect(errors.mock.calls.map(([text, details]) => [text, (details as { messageId: string }).messageId])).toEqual([
      ['step not done', 'bad-json'],
      ['step not done', 'throws'],
    ]);
  });

  it('runs onFailure with the message and record before returning it, and a failing onFailure neither throws nor loses the failure', async () => {
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const onFailure = vi.fn(async (message: { id: string }, failed: SQSRecord) => {
      if (message.id === 'second') throw new Error(`could not record ${failed.messageId}`);
    });
    const answer = await consumeBatch<{ id: string }>(
      event(record('m1', '{"id":"first"}', 3), record('m2', '{"id":"second"}')),
      async () => {
        throw new Error('down');
      },
      { failure: 'not done', onFailure },
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
    expect(onFailure.mock.calls.map(([message, failed]) => [message.id, failed.attributes.ApproximateReceiveCount])).toEqual([
      ['first', '3'],
      ['second', '1'],
    ]);
    expect(errors.mock.calls.map(([text]) => text)).toEqual(['not done', 'not done', 'the failure of a queue message not recorded']);
  });

  it('does not run onFailure for a body it could not parse: there is no message to act on', async () => {
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const onFailure = vi.fn(async () => undefined);
    const answer = await consumeBatch(event(record('x', 'not json')), async () => undefined, { failure: 'not done', onFailure });
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'x' }] });
    expect(onFailure).not.toHaveBeenCalled();
  });
});
