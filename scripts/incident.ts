/**
 * The incident register (Res. CD/ANPD 15/2024; docs/privacy.md, "Incidents"):
 *
 *   npm run incident -- record --summary "…" --detected-at <iso> --categories "…" --holders <n> [--notified-at <iso>]
 *   npm run incident -- notified --id <id> --detected-at <iso> --notified-at <iso>
 *   npm run incident -- list
 *
 * `record` registers an incident (every one, notified or not) and prints it with the last
 * business day to notify ANPD and the holders; `notified` notes when a registered one was
 * notified; `list` prints the register, newest first, one JSON object a line. Items are the platform's, kept 5 years (DynamoDB TTL).
 *
 * Store: the running `npm start`'s on $DATA_DIR (or, with `--private-store` and none running,
 * a DynamoDB Local of its own there; local/store.ts); `--table NAME` the deployed table, with
 * the usual AWS credentials and region.
 */
import { parseArgs } from 'node:util';
import { incidentInputOf, notificationOf, readRegister, recordIncident, recordNotification } from '../lib/privacy/register';
import { settings, settingsEnvironment } from '../lib/settings';
import { connectStore, PRIVATE_STORE_FLAG } from '../local/store';

const USAGE = [
  `usage: npm run incident -- record --summary "…" --detected-at <iso> --categories "a, b" --holders <n> [--notified-at <iso>] [--table DEPLOYED_TABLE | ${PRIVATE_STORE_FLAG}]`,
  `       npm run incident -- notified --id <id> --detected-at <iso> --notified-at <iso> [--table DEPLOYED_TABLE | ${PRIVATE_STORE_FLAG}]`,
  `       npm run incident -- list [--table DEPLOYED_TABLE | ${PRIVATE_STORE_FLAG}]`,
].join('\n');

/** Exit 2 (bad usage) with these lines and the usage; nothing was written. */
function usageError(...lines: string[]): never {
  for (const line of lines) console.error(line);
  console.error(USAGE);
  process.exit(2);
}

function commandLine() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        id: { type: 'string' },
        summary: { type: 'string' },
        'detected-at': { type: 'string' },
        categories: { type: 'string' },
        holders: { type: 'string' },
        'notified-at': { type: 'string' },
        table: { type: 'string' },
        'private-store': { type: 'boolean' },
      },
      strict: true,
    });
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error));
  }
}

async function main(): Promise<void> {
  const { values, positionals } = commandLine();
  const [command, ...rest] = positionals;
  if ((command !== 'record' && command !== 'notified' && command !== 'list') || rest.length > 0)
    usageError(`Unknown command: ${positionals.join(' ') || '(none)'}`);
  const outcome = command === 'record' ? incidentInputOf(values) : undefined;
  if (outcome && 'problems' in outcome) usageError(...outcome.problems);
  const notification = command === 'notified' ? notificationOf(values) : undefined;
  if (notification && 'problems' in notification) usageError(...notification.problems);

  // Against a deployed table the store's settings come from lib/settings unless the environment sets them.
  process.env.ACCESS_RECORD_RETENTION_DAYS ??= settingsEnvironment.ACCESS_RECORD_RETENTION_DAYS;
  const store = await connectStore(values.table, { privateStore: values['private-store'] });
  try {
    if (outcome && 'input' in outcome) {
      console.log(JSON.stringify(await recordIncident(outcome.input, Date.now(), settings.businessTimeZone)));
    } else if (notification && 'id' in notification) {
      if (!(await recordNotification(notification))) {
        console.error(`No incident ${notification.id} detected at ${notification.detectedAt} in the register (see npm run incident -- list).`);
        process.exitCode = 1;
      }
    } else {
      for (const incident of await readRegister()) console.log(JSON.stringify(incident));
    }
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
