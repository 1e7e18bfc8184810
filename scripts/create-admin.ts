/**
 * `ADMIN_PASSWORD=… npm run create-admin -- --email E [--name N] [--tenant SLUG] [--promote] [--table T]`
 *
 * Creates a platform administrator (the profile GET /tenants needs). No public route grants
 * this profile.
 *
 * The password never comes from the command line (other users see it in `ps`, shells keep
 * it in their history): it is read from `$ADMIN_PASSWORD`, else from the first line of
 * stdin when stdin is not a terminal (`… < file`, a pipe), else from a prompt on the
 * terminal that does not echo. `--password` is refused.
 *
 * A new administrator goes into the platform tenant `--tenant` (default `platform`): a tenant
 * this command creates (ENTERPRISE) and marks, so POST /tenants can never produce it. A tenant
 * of that name that was signed up like a customer's is refused.
 *
 * An e-mail that already has an account is refused unless `--promote` is given. Promotion
 * keeps the account in its tenant, replaces its password with the one given and ends all its
 * sessions: whoever registered that e-mail first keeps no way in.
 *
 * Store: the running `npm start`'s on $DATA_DIR; with none running it refuses, unless
 * `--private-store` lets it start a DynamoDB Local of its own there (local/store.ts).
 * `--table NAME` targets a deployed table instead, with the usual AWS credentials and region.
 * The store it uses is named on stderr.
 */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { promoteOrCreateAdmin } from '../tools/admin/create-admin';
import { passwordSchema } from '../lib/auth/passwords';
import { emailField, nameField } from '../lib/domain/fields';
import { tenantNameField } from '../lib/tenants/schemas';
import { chooseLocalStore, connectStore, PRIVATE_STORE_FLAG } from '../local/store';

const USAGE = [
  `usage: npm run create-admin -- --email E [--name N] [--tenant SLUG] [--promote] [--table DEPLOYED_TABLE | ${PRIVATE_STORE_FLAG}]`,
  '  The password is read from $ADMIN_PASSWORD, else from the first line of stdin when it is not a terminal,',
  '  else from a prompt: ADMIN_PASSWORD=… npm run create-admin -- --email E',
].join('\n');

const argsSchema = z.object({
  email: emailField,
  name: z._default(nameField, 'Platform administrator'),
  tenant: z._default(tenantNameField, 'platform'),
  promote: z.boolean().default(false),
  table: z.string().min(1).optional(),
  'private-store': z.boolean().default(false),
});

/** Exit 2 (bad usage) with these lines and the usage. */
function usageError(...lines: string[]): never {
  for (const line of lines) console.error(line);
  console.error(USAGE);
  process.exit(2);
}

class Interrupted extends Error {}

/** The first line of a non-terminal stdin, without its line break ('' at once-empty input). */
async function readFirstLine(): Promise<string> {
  process.stdin.setEncoding('utf8');
  let text = '';
  for await (const chunk of process.stdin as AsyncIterable<string>) {
    text += chunk;
    const newline = text.indexOf('\n');
    if (newline >= 0) {
      text = text.slice(0, newline);
      break;
    }
  }
  return text.replace(/\r$/, '');
}

/** Ask on the terminal without echoing what is typed (the prompt goes to stderr). */
async function promptHidden(question: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, encoding: BufferEncoding, callback: () => void) {
      if (!muted) process.stderr.write(chunk, encoding);
      callback();
    },
  });
  const terminal = createInterface({ input: process.stdin, output, terminal: true });
  try {
    return await new Promise<string>((resolve, reject) => {
      terminal.on('SIGINT', () => reject(new Interrupted()));
      terminal.on('close', () => reject(new Interrupted()));
      terminal.question(question, resolve);
      muted = true;
    });
  } finally {
    terminal.removeAllListeners('close');
    terminal.close();
    process.stderr.write('\n');
  }
}

async function readPassword(): Promise<string> {
  const fromEnvironment = process.env.ADMIN_PASSWORD;
  if (fromEnvironment !== undefined) {
    // Not handed on to anything this process starts (DynamoDB Local).
    delete process.env.ADMIN_PASSWORD;
    return fromEnvironment;
  }
  if (!process.stdin.isTTY) return readFirstLine();
  const password = await promptHidden('Password: ');
  if (!passwordSchema.safeParse(password).success) return password;
  const repeated = await promptHidden('Repeat the password: ');
  if (repeated !== password) usageError('The two passwords differ; nothing was changed.');
  return password;
}

function parseCommandLine() {
  const argv = process.argv.slice(2);
  if (argv.some((arg) => arg === '--password' || arg.startsWith('--password='))) {
    usageError(
      '--password is not accepted: a password on the command line shows in `ps` and in shell history.',
      'Give it in the environment (ADMIN_PASSWORD=… npm run create-admin -- --email E), on stdin, or at the prompt.',
    );
  }
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        tenant: { type: 'string' },
        promote: { type: 'boolean' },
        table: { type: 'string' },
        'private-store': { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (error) {
    usageError(error instanceof Error ? error.message : String(error));
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) usageError(...parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`));
  return parsed.data;
}

async function main(): Promise<void> {
  const args = parseCommandLine();
  const storeOptions = { privateStore: args['private-store'] };
  // Refused before the password is asked for.
  if (args.table === undefined) await chooseLocalStore(storeOptions);
  const rawPassword = await readPassword();
  if (rawPassword === '') usageError('No password: set ADMIN_PASSWORD, pipe it on stdin, or run the command on a terminal to be asked.');
  const password = passwordSchema.safeParse(rawPassword);
  if (!password.success) usageError(...password.error.issues.map((issue) => `password: ${issue.message}`));

  const store = await connectStore(args.table, storeOptions);
  try {
    const outcome = await promoteOrCreateAdmin(
      { email: args.email, password: password.data, name: args.name, tenantName: args.tenant, promote: args.promote },
      Date.now(),
    );
    console.log(
      outcome.kind === 'created'
        ? `Created platform administrator ${args.email} in ${outcome.tenantCreated ? 'the new ' : ''}platform tenant '${outcome.tenantName}' (${outcome.tenantId}).`
        : `Promoted ${args.email} (tenant ${outcome.tenantId}) to platform administrator: its password was replaced and ${outcome.sessionsEnded} session(s) ended.`,
    );
    // Shown this once: the administrator's sign-in now takes a code after the password.
    const { otpauthUri, secret, recoveryCodes } = outcome.secondFactor;
    console.log(
      [
        'Its second factor is on: signing in takes the password, then a code (POST /auth/mfa/verify).',
        'Add it to an authenticator app (scan a QR code of this URI, or type the secret):',
        `  otpauth URI: ${otpauthUri}`,
        `  secret: ${secret}`,
        'Recovery codes (each works once in place of a code; keep them offline):',
        ...recoveryCodes.map((code) => `  ${code}`),
      ].join('\n'),
    );
  } finally {
    await store.stop();
  }
}

main().catch((error: unknown) => {
  if (error instanceof Interrupted) {
    console.error('No password given; nothing was changed.');
    process.exit(130);
  }
  // AdminRefused (an e-mail taken without --promote, a tenant that is not the platform's) and
  // store errors alike: the message, exit 1.
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
