import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-dynamodb-streams';
import { runDue, type DeliveryDeps } from '../lib/webhooks/delivery';
import { storeDeliveryDeps } from '../lib/webhooks/deps';
import { handleMessage, type StreamRecordMessage, type WakeUpMessage, type WakeUps } from '../lib/webhooks/engine';
import { localDynamoClient } from './dynamodb-local';

/**
 * The webhooks' engine of `npm start`, running the stack's delivery code (lib/webhooks/engine
 * `handleMessage`): the table's stream (on DynamoDB Local, which keeps one too) is read every
 * STREAM_POLL_MS in place of the pipe and the queue, each record handled as the delivery
 * function handles it; a wake-up is a timer in place of a delayed SQS message. The retries due
 * are also looked for every RETRY_POLL_MS in the due index (`runDue`): timers do not outlive
 * the process, as SQS messages do, so a delivery left pending by a stopped npm start is
 * attempted when it starts again.
 *
 * The stream is read from its end when npm start starts: events written while it was stopped
 * are not delivered (GET /events lists them). The retries' clock is the delivery's `now`: a test
 * that needs a retry sooner runs `runDue` itself in process with a clock of its own
 * (test/integration/webhooks-delivery.test.ts), against the same store; the claims
 * (lib/webhooks/deliveries-repository) keep it and this engine from attempting one
 * delivery twice.
 */

export const STREAM_POLL_MS = 200;
export const RETRY_POLL_MS = 1000;
/** How often the stream's shards are listed again (DynamoDB Local closes and opens shards as AWS does). */
const SHARDS_EVERY_MS = 5000;

export interface WebhookEngineOptions {
  dynamoEndpoint: string;
  tableName: string;
  log: (line: string) => void;
  deps?: DeliveryDeps;
}

/** Start the engine; the function returned stops it. */
export async function startWebhookEngine(options: WebhookEngineOptions): Promise<() => Promise<void>> {
  const deps = options.deps ?? storeDeliveryDeps({ log: options.log });
  const table = localDynamoClient(options.dynamoEndpoint);
  const { Table } = await table.send(new DescribeTableCommand({ TableName: options.tableName }));
  table.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${options.tableName} has no stream: the webhooks' engine cannot start`);
  const streams = new DynamoDBStreamsClient({
    endpoint: options.dynamoEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });

  /** The wake-ups waiting, by delivery: a later one replaces an earlier one. */
  const timers = new Map<string, NodeJS.Timeout>();
  const logDeliveries = (deliveries: { eventType: string; eventId: string; endpointId: string; status: string }[]) => {
    for (const delivery of deliveries)
      options.log(`[webhooks] ${delivery.eventType} ${delivery.eventId} to endpoint ${delivery.endpointId}: ${delivery.status}`);
  };
  const handle = (message: StreamRecordMessage | WakeUpMessage) =>
    handleMessage(message, deps, wakeUps)
      .then(logDeliveries)
      .catch((error: unknown) => options.log(`[webhooks] a message was not handled: ${error instanceof Error ? error.message : String(error)}`));
  const wakeUps: WakeUps = (message, delaySeconds) => {
    clearTimeout(timers.get(message.id));
    const timer = setTimeout(() => {
      timers.delete(message.id);
      void handle(message);
    }, delaySeconds * 1000);
    timer.unref();
    timers.set(message.id, timer);
    return Promise.resolve();
  };

  /** Each shard read, by id: its next iterator, or null once it is closed and read to its end. */
  const iterators = new Map<string, string | null>();
  let stopped = false;
  let firstListing = true;
  let listedAt = 0;

  const listShards = async () => {
    let start: string | undefined;
    do {
      const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn, ...(start ? { ExclusiveStartShardId: start } : {}) }));
      for (const shard of StreamDescription?.Shards ?? []) {
        const id = shard.ShardId;
        if (!id || iterators.has(id)) continue;
        const open = shard.SequenceNumberRange?.EndingSequenceNumber === undefined;
        // At start, from the end of the open shards (closed ones are history); a shard found later is read whole.
        if (firstListing && !open) {
          iterators.set(id, null);
          continue;
        }
        const { ShardIterator } = await streams.send(
          new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: id, ShardIteratorType: firstListing ? 'LATEST' : 'TRIM_HORIZON' }),
        );
        iterators.set(id, ShardIterator ?? null);
      }
      start = StreamDescription?.LastEvaluatedShardId;
    } while (start);
    firstListing = false;
    listedAt = Date.now();
  };

  const readShards = async () => {
    for (const [id, iterator] of iterators) {
      if (iterator === null) continue;
      const { Records = [], NextShardIterator } = await streams.send(new GetRecordsCommand({ ShardIterator: iterator }));
      iterators.set(id, NextShardIterator ?? null);
      for (const record of Records) void handle(record);
      // A closed shard read to its end: its children are found by the next listing.
      if (!NextShardIterator) listedAt = 0;
    }
  };

  await listShards();
  let streamTimer: NodeJS.Timeout | undefined;
  const pollStream = async () => {
    try {
      if (Date.now() - listedAt >= SHARDS_EVERY_MS) await listShards();
      await readShards();
    } catch (error) {
      options.log(`[webhooks] reading the table's stream failed: ${error instanceof Error ? error.message : String(error)}`);
      // An expired iterator, a shard gone: list and start again from the shards' ends.
      if ((error as Error).name === 'ExpiredIteratorException' || (error as Error).name === 'ResourceNotFoundException') {
        iterators.clear();
        firstListing = true;
        listedAt = 0;
      }
    }
    if (!stopped) streamTimer = setTimeout(() => void pollStream(), STREAM_POLL_MS);
  };
  streamTimer = setTimeout(() => void pollStream(), STREAM_POLL_MS);

  // One run of the retries at a time: a run that outlasts the interval skips the next tick.
  let retrying: Promise<void> | undefined;
  const retryTimer = setInterval(() => {
    if (retrying) return;
    retrying = runDue(deps)
      .then(logDeliveries)
      .catch((error: unknown) => options.log(`[webhooks] retries failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        retrying = undefined;
      });
  }, RETRY_POLL_MS);

  return async () => {
    stopped = true;
    clearTimeout(streamTimer);
    clearInterval(retryTimer);
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    await retrying;
    streams.destroy();
  };
}
