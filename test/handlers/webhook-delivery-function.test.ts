import { randomUUID } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/webhooks/delivery-worker';
import { deliveryIdOf } from '../../lib/webhooks/delivery-id';
import { MAX_WAKE_UP_DELAY_SECONDS } from '../../lib/webhooks/engine';

/**
 * The delivery function on its queue (functions/webhooks/delivery-worker.ts): a wake-up of a
 * delivery not yet due sends the next wake-up with SQS's delay, a stream record of an event is
 * dispatched, and a message whose handling fails is returned to the queue alone.
 */
const ddb = mockClient(DynamoDBDocumentClient);
const sqs = mockClient(SQSClient);
const QUEUE = 'https://sqs.sa-east-1.amazonaws.com/123456789012/webhooks';
const tenantId = randomUUID();
const endpointId = randomUUID();
const createdAt = '2026-11-26T10:00:00.000Z';
const id = deliveryIdOf(endpointId, createdAt, randomUUID());

const message = (messageId: string, body: unknown) => ({ messageId, body: JSON.stringify(body) });
const sqsEvent = (...records: { messageId: string; body: string }[]): SQSEvent => ({ Records: records as SQSEvent['Records'] });
const eventRecord = (tenant: string) => ({
  eventName: 'INSERT',
  dynamodb: {
    NewImage: marshall({
      pk: `TENANT#${tenant}#EVENTS`,
      sk: 'x',
      type: 'Event',
      event: { id: randomUUID(), type: 'supplier.created', timestamp: createdAt, data: { id: randomUUID(), tenantId: tenant } },
    }),
  },
});

beforeEach(() => {
  ddb.reset();
  sqs.reset();
  process.env.WEBHOOK_QUEUE_URL = QUEUE;
  sqs.on(SendMessageCommand).resolves({});
});

describe('the webhook delivery function', () => {
  it('a wake-up of a delivery due in 2 hours asks to be woken again after 15 minutes, the longest SQS waits', async () => {
    const nextAttemptAt = new Date(Date.now() + 2 * 3600_000).toISOString();
    ddb.on(GetCommand).resolves({
      Item: { tenantId, endpointId, createdAt, id, eventId: 'e', eventType: 'supplier.created', status: 'pending', attempts: [], nextAttemptAt, event: {} },
    });
    const wakeUp = { kind: 'delivery', tenantId, endpointId, createdAt, id };
    expect(await handler(sqsEvent(message('m1', wakeUp)))).toEqual({ batchItemFailures: [] });
    expect(sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: QUEUE, MessageBody: JSON.stringify(wakeUp), DelaySeconds: MAX_WAKE_UP_DELAY_SECONDS },
    ]);
  });

  it('returns only the messages whose handling failed to the queue, and takes a list of records as its records', async () => {
    const failing = randomUUID();
    ddb.on(QueryCommand).callsFake((input: { ExpressionAttributeValues: Record<string, string> }) => {
      if (String(input.ExpressionAttributeValues[':pk']).includes(failing)) throw new Error('store unavailable');
      return { Items: [] };
    });
    const answer = await handler(
      sqsEvent(message('ok', eventRecord(tenantId)), message('bad', eventRecord(failing)), message('list', [eventRecord(tenantId), { eventName: 'MODIFY' }])),
    );
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
    // Each event asked its tenant's endpoints once (two tenants' events, one of them twice); the MODIFY record asked nothing.
    expect(ddb.commandCalls(QueryCommand)).toHaveLength(3);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(0);
  });
});
