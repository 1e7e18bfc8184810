import { GetCommand, NumberValue } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../lib/db/client';

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
  /** The write units of transactions, by the `type` of the item written (`?` for an item without one). */
  writeUnitsByType: Record<string, number>;
}

let tally: Tally | undefined;
let installed = false;
/** Set while the middleware reads items back for its own accounting (not part of the call measured). */
let accounting = false;

/**
 * An item's size by DynamoDB's rules (attribute names and values in UTF-8 bytes; a number
 * about one byte per two digits plus one; 3 bytes of overhead per map or list, 1 per element).
 */
export function itemSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number' || typeof value === 'bigint' || value instanceof NumberValue) {
    const digits = String(value instanceof NumberValue ? value.value : value)
      .replace(/[-.]/g, '')
      .replace(/^0+/, '').length;
    return Math.ceil(digits / 2) + 1;
  }
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, element) => sum + itemSize(element), 0);
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + itemSize(element), 0);
  return 3 + Object.entries(value as Record<string, unknown>).reduce((sum, [name, element]) => sum + Buffer.byteLength(name) + itemSize(element), 0);
}

/** A key attribute as the transaction names it (plain, or marshalled `{ S: ... }`). */
const plain = (value: unknown): unknown => (value && typeof value === 'object' && 'S' in value ? value.S : value);

/**
 * What a transaction costs on AWS: 2 write units per 1 KB of each item it writes (rounded up,
 * read back after the write, since an Update's size is the whole item's), plus 1 per 1 KB for
 * an item the GSI holds (its index write), and 2 per ConditionCheck.
 * DynamoDB Local answers a flat 4 whatever the transaction holds (measured: 1, 4 and 12 puts
 * of 0.3 KB each all report 4), so its figure cannot be used.
 */
async function transactionUnits(input: Record<string, unknown>, byType: Record<string, number>): Promise<number> {
  let units = 0;
  accounting = true;
  try {
    for (const action of (input.TransactItems ?? []) as Record<string, { Item?: Record<string, unknown>; Key?: Record<string, unknown> }>[]) {
      if (action.ConditionCheck) {
        units += 2;
        continue;
      }
      const written = action.Put ?? action.Update ?? action.Delete;
      const key = written?.Key ?? written?.Item;
      const stored = key
        ? (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: plain(key.pk), sk: plain(key.sk) }, ConsistentRead: true }))).Item
        : undefined;
      // A deleted item is gone: counted at the minimum, as a small one.
      const kilobytes = Math.max(1, Math.ceil(itemSize(stored ?? {}) / 1024));
      units += 2 * kilobytes;
      const type = typeof stored?.type === 'string' ? stored.type : '?';
      byType[type] = (byType[type] ?? 0) + 2 * kilobytes;
      // An item in the GSI (projected ALL) is written there too, at the standard rate.
      if (stored?.gsi1pk !== undefined) units += kilobytes;
    }
  } finally {
    accounting = false;
  }
  return units;
}

/** The commands whose capacity is write units (every other one reads). */
const WRITE_COMMANDS = new Set([
  'PutCommand',
  'UpdateCommand',
  'DeleteCommand',
  'BatchWriteCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

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
      const counted = tally && !accounting;
      if (counted) input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      if (tally && counted) {
        tally.requests += 1;
        tally.commands.push(commandName);
        if (commandName === 'TransactWriteItemsCommand' || commandName === 'TransactWriteCommand') {
          const units = await transactionUnits(input, tally.writeUnitsByType);
          tally.capacityUnits += units;
          tally.writeUnits += units;
          return result;
        }
        const consumed = (result.output as { ConsumedCapacity?: CapacityEntry | CapacityEntry[] }).ConsumedCapacity;
        // DynamoDB Local answers a total only: what kind of units it is follows from the command.
        const writes = WRITE_COMMANDS.has(commandName);
        for (const entry of ([] as CapacityEntry[]).concat(consumed ?? [])) {
          const units = entry.CapacityUnits ?? 0;
          tally.capacityUnits += units;
          tally.readUnits += entry.ReadCapacityUnits ?? (writes ? 0 : units);
          tally.writeUnits += entry.WriteCapacityUnits ?? (writes ? units : 0);
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
  tally = { requests: 0, commands: [], readUnits: 0, writeUnits: 0, capacityUnits: 0, writeUnitsByType: {} };
  try {
    const result = await work();
    return { result, ...tally };
  } finally {
    tally = undefined;
  }
}
