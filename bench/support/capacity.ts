import { db } from '../../lib/db/client';

/**
 * Counts DynamoDB requests and the capacity they consume: a middleware on the service's own
 * document client asks every command for ReturnConsumedCapacity and adds up the answers, so
 * whole service calls (all their round trips) can be measured without changing them.
 */
interface Tally {
  requests: number;
  /** Command names in order, e.g. ['GetCommand', 'TransactWriteCommand']. */
  commands: string[];
  readUnits: number;
  writeUnits: number;
  capacityUnits: number;
}

let tally: Tally | undefined;
let installed = false;

interface CapacityEntry {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

function install(): void {
  if (installed) return;
  installed = true;
  db().middlewareStack.add(
    (next, context) => async (args) => {
      const commandName = String((context as { commandName?: string }).commandName ?? 'Command');
      const input = (args as { input: Record<string, unknown> }).input;
      if (tally) input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (tally) {
        tally.requests += 1;
        tally.commands.push(commandName);
        const consumed = (result.output as { ConsumedCapacity?: CapacityEntry | CapacityEntry[] }).ConsumedCapacity;
        for (const entry of ([] as CapacityEntry[]).concat(consumed ?? [])) {
          tally.capacityUnits += entry.CapacityUnits ?? 0;
          tally.readUnits += entry.ReadCapacityUnits ?? 0;
          tally.writeUnits += entry.WriteCapacityUnits ?? 0;
        }
      }
      return result;
    },
    { step: 'initialize', name: 'benchCapacity' },
  );
}

/** Run `work` and report the DynamoDB requests it made and the capacity units they consumed. */
export async function measureCapacity<T>(work: () => Promise<T>): Promise<{ result: T } & Tally> {
  install();
  tally = { requests: 0, commands: [], readUnits: 0, writeUnits: 0, capacityUnits: 0 };
  try {
    const result = await work();
    return { result, ...tally };
  } finally {
    tally = undefined;
  }
}
