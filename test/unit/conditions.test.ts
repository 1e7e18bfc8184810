import { ConditionalCheckFailedException, TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { failedConditions, isConditionFailure } from '../../lib/db/conditions';

const cancelled = (...codes: (string | undefined)[]) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: codes.map((Code): CancellationReason => (Code === undefined ? {} : { Code })),
  });

describe('isConditionFailure', () => {
  it('recognises the SDK exception class and its name', () => {
    expect(isConditionFailure(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }))).toBe(true);
    expect(isConditionFailure(Object.assign(new Error('failed'), { name: 'ConditionalCheckFailedException' }))).toBe(true);
  });

  it('is false for anything else', () => {
    expect(isConditionFailure(new Error('ConditionalCheckFailedException'))).toBe(false);
    expect(isConditionFailure(cancelled('ConditionalCheckFailed'))).toBe(false);
    expect(isConditionFailure('ConditionalCheckFailedException')).toBe(false);
  });
});

describe('failedConditions', () => {
  it('gives the indexes of the items whose condition failed', () => {
    expect(failedConditions(cancelled('None', 'ConditionalCheckFailed', 'None', 'ConditionalCheckFailed'))).toEqual([1, 3]);
  });

  it('treats reasons without a code as none', () => {
    expect(failedConditions(cancelled(undefined, 'ConditionalCheckFailed'))).toEqual([1]);
  });

  it('recognises a cancellation by its name (errors of another SDK copy)', () => {
    const error = Object.assign(new Error('Transaction cancelled'), {
      name: 'TransactionCanceledException',
      CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
    });

    expect(failedConditions(error)).toEqual([0]);
  });

  it.each([
    ['throttling', cancelled('ConditionalCheckFailed', 'ThrottlingError')],
    ['a conflict with another transaction', cancelled('TransactionConflict', 'None')],
    ['a validation error', cancelled('ValidationError')],
    ['no failed condition', cancelled('None', 'None')],
    ['no reasons at all', new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {} })],
    ['another error', new Error('boom')],
  ])('is undefined for a cancellation by %s, so the error propagates', (_label, error) => {
    expect(failedConditions(error)).toBeUndefined();
  });
});
