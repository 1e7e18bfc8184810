import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from './config';

/**
 * Secrets the functions read at run time: the text of a Secrets Manager secret (on AWS), or
 * the value itself from the environment (local runs, tests). Read once per container.
 *
 * The Secrets Manager client is imported statically, by name: only the functions that
 * read a key reach secretText(), so only their bundles hold it, and esbuild keeps the client
 * and GetSecretValueCommand alone. A dynamic `import()` kept the whole client (every
 * command, 29 KB) behind a lazy init; measured, the static import makes those bundles
 * 20 KB smaller and their import about 4 ms faster, not slower (infra/bundling.ts).
 */
const cache = new Map<string, Promise<string>>();

/** The text of a Secrets Manager secret, read once per container (a failed read is retried on the next call). */
export function secretText(secretId: string): Promise<string> {
  let read = cache.get(secretId);
  if (!read) {
    read = (async () => {
      const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
      if (!secret.SecretString) throw new Error(`The secret ${secretId} is empty`);
      return secret.SecretString;
    })();
    cache.set(secretId, read);
    read.catch(() => cache.delete(secretId));
  }
  return read;
}

/** Shorter than this, a MAC key is guessable; the stack generates 64 characters. */
export const MIN_CURSOR_SECRET_LENGTH = 32;

/**
 * The key that seals page cursors (lib/domain/cursor): CURSOR_SECRET locally, the secret
 * CURSOR_SECRET_ID names on AWS. Its text, as UTF-8, is the HMAC key.
 */
export async function cursorSecret(): Promise<Uint8Array> {
  const { CURSOR_SECRET, CURSOR_SECRET_ID } = config();
  if (!CURSOR_SECRET && !CURSOR_SECRET_ID) throw new Error('Invalid configuration: CURSOR_SECRET or CURSOR_SECRET_ID is required to page with cursors');
  const text = CURSOR_SECRET ?? (await secretText(CURSOR_SECRET_ID as string));
  if (text.length < MIN_CURSOR_SECRET_LENGTH) throw new Error(`The cursor secret has fewer than ${MIN_CURSOR_SECRET_LENGTH} characters`);
  return new TextEncoder().encode(text);
}
