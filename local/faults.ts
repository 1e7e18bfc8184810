import { InternalServerError, ProvisionedThroughputExceededException, ThrottlingException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Fault injection for the local API (`LOCAL_FAULT_RATE`, `npm run chaos`): the DynamoDB client
 * fails a share of its calls the way DynamoDB does. Never in a deployed bundle: only
 * local/start.ts installs it, in source mode, on the process's one document client.
 *
 * The errors are raised inside the SDK's retry loop, as a real answer would be, so the SDK
 * retries what it retries (throttling, 500s, timeouts) with its own backoff and retry quota,
 * and the service sees only what gets through:
 *
 * - `throttle`: ProvisionedThroughputExceeded or Throttling, nothing applied;
 * - `internal`: InternalServerError (500), nothing applied;
 * - `conflict`: a transaction cancelled for TransactionConflict, nothing applied;
 * - `timeout`: the write is applied, then the answer is lost (a socket timeout), so the SDK
 *   sends it again: a conditional write finds its own effect, a transaction its token;
 * - `partial`: a BatchGetItem or BatchWriteItem does half of its items and returns the rest
 *   as unprocessed (outside the retry loop: the SDK leaves those to the caller).
 */
export type FaultKind = 'throttle' | 'internal' | 'conflict' | 'timeout' | 'partial';

export interface FaultOptions {
  /** The share of calls (0 to 1) that fail, per attempt. */
  rate: number;
  /** A seed for a reproducible sequence of faults. */
  seed: number;
  /** Only these kinds (all by default). */
  kinds?: FaultKind[];
  /** Only calls of these commands (`PutItemCommand`; all by default). */
  commands?: string[];
  /** For a test: these kinds, one per faulted attempt in this order, then none (instead of drawing them). */
  plan?: Exclude<FaultKind, 'partial'>[];
  /** Called for each fault injected (counts for the chaos report). */
  onFault?: (kind: FaultKind, command: string) => void;
}

/** mulberry32: a small seeded generator: one seed, one sequence of draws (which call meets which depends on timing under load). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

// The client's command names (the document client runs the low-level commands).
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);
const BATCHES = new Set(['BatchGetItemCommand', 'BatchWriteItemCommand']);

/** The kinds of fault a command can meet in its retry loop. */
export function faultKindsOf(command: string): FaultKind[] {
  const kinds: FaultKind[] = ['throttle', 'internal'];
  if (command === 'TransactWriteItemsCommand') kinds.push('conflict');
  if (WRITES.has(command)) kinds.push('timeout');
  return kinds;
}

const metadata = (httpStatusCode: number) => ({ httpStatusCode, requestId: 'fault-injected', attempts: 1, totalRetryDelay: 0 });

/** The error DynamoDB (or the network) answers with, for a fault of this kind. */
export function faultError(kind: Exclude<FaultKind, 'partial'>, input: { TransactItems?: unknown[] }, pick: number): Error {
  switch (kind) {
    case 'throttle':
      return pick < 0.5
        ? new ProvisionedThroughputExceededException({
            message: 'The level of configured provisioned throughput for the table was exceeded (injected)',
            $metadata: metadata(400),
          })
        : new ThrottlingException({
            message: 'Throughput exceeds the current capacity for one or more global secondary indexes (injected)',
            $metadata: metadata(400),
          });
    case 'internal':
      return new InternalServerError({ message: 'Internal server error (injected)', $metadata: metadata(500) });
    case 'conflict': {
      const items = input.TransactItems?.length ?? 1;
      const conflicted = Math.min(items - 1, Math.floor(pick * items));
      return new TransactionCanceledException({
        message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict] (injected)',
        $metadata: metadata(400),
        CancellationReasons: Array.from({ length: items }, (_, index) =>
          index === conflicted ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
        ),
      });
    }
    case 'timeout':
      return Object.assign(new Error('Connection timed out after the request was sent (injected, the write applied)'), {
        name: 'TimeoutError',
        $metadata: {},
      });
  }
}

type Lists = Record<string, unknown[]>;

/** Half of each table's list, and the other half. */
function halve(lists: Lists): { kept: Lists; dropped: Lists } {
  const kept: Lists = {};
  const dropped: Lists = {};
  for (const [table, list] of Object.entries(lists)) {
    const half = Math.ceil(list.length / 2);
    kept[table] = list.slice(0, half);
    if (list.length > half) dropped[table] = list.slice(half);
  }
  return { kept, dropped };
}

type BatchGetRequest = Record<string, { Keys: unknown[] } & Record<string, unknown>>;

/** A batch call made on half of its items, the rest answered as unprocessed. */
async function partially(command: string, input: Record<string, unknown>, send: (input: Record<string, unknown>) => Promise<Record<string, unknown>>) {
  if (command === 'BatchWriteItemCommand') {
    const { kept, dropped } = halve(input.RequestItems as Lists);
    const output = await send({ ...input, RequestItems: kept });
    const unprocessed = { ...((output.UnprocessedItems as Lists | undefined) ?? {}) };
    for (const [table, list] of Object.entries(dropped)) unprocessed[table] = [...(unprocessed[table] ?? []), ...list];
    return { ...output, UnprocessedItems: unprocessed };
  }
  const requests = input.RequestItems as BatchGetRequest;
  const { kept, dropped } = halve(Object.fromEntries(Object.entries(requests).map(([table, request]) => [table, request.Keys])));
  const output = await send({
    ...input,
    RequestItems: Object.fromEntries(Object.entries(requests).map(([table, request]) => [table, { ...request, Keys: kept[table] }])),
  });
  const unprocessed = { ...((output.UnprocessedKeys as BatchGetRequest | undefined) ?? {}) };
  for (const [table, keys] of Object.entries(dropped))
    unprocessed[table] = { ...(requests[table] as BatchGetRequest[string]), Keys: [...(unprocessed[table]?.Keys ?? []), ...keys] };
  return { ...output, UnprocessedKeys: unprocessed };
}

interface Args {
  input: Record<string, unknown>;
}
interface Answer {
  output: Record<string, unknown>;
}
type Next = (args: Args) => Promise<Answer>;

/** Install the faults on a document client; returns a function that removes them. */
export function injectFaults(client: DynamoDBDocumentClient, options: FaultOptions): () => void {
  if (!(options.rate >= 0 && options.rate <= 1)) throw new Error(`The fault rate must be between 0 and 1, not ${options.rate}`);
  const random = seededRandom(options.seed);
  const plan = options.plan && [...options.plan];
  const stack = client.middlewareStack as unknown as {
    add(middleware: (next: Next, context: { commandName?: string }) => Next, options: { step: string; name: string; priority?: string }): void;
    remove(name: string): boolean;
  };

  // Inside the retry loop: each attempt may meet an error.
  stack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? '';
      if ((options.commands && !options.commands.includes(command)) || random() >= options.rate) return next(args);
      const kinds = faultKindsOf(command).filter((kind) => options.kinds?.includes(kind) ?? true);
      if (kinds.length === 0) return next(args);
      const planned = plan?.shift();
      if (plan && planned === undefined) return next(args);
      const kind = planned ?? (kinds[Math.floor(random() * kinds.length)] as Exclude<FaultKind, 'partial'>);
      options.onFault?.(kind, command);
      if (kind === 'timeout') await next(args);
      throw faultError(kind, args.input, random());
    },
    { step: 'deserialize', name: 'injectedFaults', priority: 'high' },
  );
  // Outside it: a batch answered in part, which the caller must send again.
  stack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? '';
      if (!BATCHES.has(command) || options.plan || options.kinds?.includes('partial') === false || random() >= options.rate) return next(args);
      options.onFault?.('partial', command);
      let answer: Answer = { output: {} };
      const output = await partially(command, args.input, async (input) => {
        answer = await next({ ...args, input });
        return answer.output;
      });
      return { ...answer, output };
    },
    { step: 'initialize', name: 'injectedPartialBatches', priority: 'low' },
  );
  return () => {
    stack.remove('injectedFaults');
    stack.remove('injectedPartialBatches');
  };
}

/** The faults `npm start` injects: LOCAL_FAULT_RATE (0 to 1) and LOCAL_FAULT_SEED; none by default. */
export function faultSettings(env: NodeJS.ProcessEnv = process.env): { rate: number; seed: number } | undefined {
  if (env.LOCAL_FAULT_RATE === undefined || env.LOCAL_FAULT_RATE === '') return undefined;
  const rate = Number(env.LOCAL_FAULT_RATE);
  const seed = env.LOCAL_FAULT_SEED ? Number(env.LOCAL_FAULT_SEED) : Date.now();
  if (!(rate >= 0 && rate <= 1)) throw new Error(`LOCAL_FAULT_RATE must be a share between 0 and 1, such as 0.05; got '${env.LOCAL_FAULT_RATE}'`);
  if (!Number.isInteger(seed)) throw new Error(`LOCAL_FAULT_SEED must be an integer; got '${env.LOCAL_FAULT_SEED}'`);
  return { rate, seed };
}

/** The line `npm start` prints for the faults it injected, which `npm run chaos` reads. */
export const faultSummary = (counts: Map<string, number>): string =>
  `[faults] injected ${JSON.stringify(Object.fromEntries([...counts.entries()].sort(([a], [b]) => a.localeCompare(b))))}`;
