import { randomInt, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { codeAt } from '../../lib/auth/totp';
import { markPlanted } from './store-verification';
import { createContractValidator, type ContractValidator, type ObservedResponse } from '../../tools/openapi/contract';

/** A response as the tests assert it: status, headers, the Set-Cookie lines and the parsed body. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  setCookies: string[];
  body: T;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body text or bytes (sent as is). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  /**
   * The loopback address the request comes from: the emulator reads the source IP from the
   * socket, as API Gateway does, so per-IP rate limits can be exercised honestly. A random
   * one by default, so tests do not share IP limits by accident.
   */
  ip?: string;
}

/** A random address in 127.0.0.0/8 (all of it is loopback on Linux). */
export const randomLoopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export const apiUrl = () => inject('apiUrl');

/** This test corrupts the tenant on purpose: the final verification of the store leaves it out. */
export const plantsFaults = (tenantId: string) => markPlanted(inject('dataDir'), tenantId);
export const allowedOrigin = () => inject('allowedOrigin');

/** One HTTP call to the local API. */
export async function call<T = Record<string, unknown>>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  // Node sends a DELETE's body neither chunked nor with a length unless told: say its length, as a browser does.
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length' || name.toLowerCase() === 'transfer-encoding'))
    headers['content-length'] = String(Buffer.byteLength(body));
  if (options.cookies)
    headers.cookie = Object.entries(options.cookies)
      .map(([name, value]) => `${name}=${value}`)
      .join('; ');
  const url = new URL(`${apiUrl()}${path}`);
  const { status, rawHeaders, text } = await new Promise<{ status: number; rawHeaders: string[]; text: string }>((resolveCall, reject) => {
    const outgoing = request(url, { method, headers, localAddress: options.ip ?? randomLoopback(), agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolveCall({ status: incoming.statusCode ?? 0, rawHeaders: incoming.rawHeaders, text: Buffer.concat(chunks).toString('utf8') }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  const responseHeaders = new Headers();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) responseHeaders.append(rawHeaders[index] as string, rawHeaders[index + 1] as string);
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  assertMatchesContract({ method, path: url.pathname, status, contentType: responseHeaders.get('content-type'), body: parsed });
  return {
    status,
    headers: responseHeaders,
    setCookies: responseHeaders.getSetCookie(),
    body: parsed as T,
  };
}

let contract: ContractValidator | undefined;

/**
 * Contract tests: every response a test receives must match the OpenAPI document's schema
 * for its route and status (tools/openapi), so the document cannot drift from the code. A
 * mismatch fails the test that made the call.
 */
function assertMatchesContract(observed: ObservedResponse): void {
  // The document is built once per run, by the global setup (it imports every handler).
  contract ??= createContractValidator(inject('openApiDocument'));
  const violation = contract.check(observed);
  if (violation) throw new Error(`Contract violation: ${violation}`);
}

/** The cookies a response set, by name (value only). */
/**
 * A write sent as a client sends it under load: again, with the same request (and so the same
 * Idempotency-Key), while the service answers 503 (a contended write out of retries: "busy").
 * The parallel-write tests count outcomes on what a client ends with.
 */
export async function settled<T>(send: () => Promise<ApiResponse<T>>, tries = 5): Promise<ApiResponse<T>> {
  let response = await send();
  for (let attempt = 1; attempt < tries && response.status === 503; attempt += 1) response = await send();
  return response;
}

export function cookiesFrom(response: ApiResponse): Record<string, string> {
  const jar: Record<string, string> = {};
  for (const line of response.setCookies) {
    const [pair] = line.split(';');
    const index = pair?.indexOf('=') ?? -1;
    if (pair && index > 0) jar[pair.slice(0, index)] = pair.slice(index + 1);
  }
  return jar;
}

/** A unique slug / e-mail per test, so test files can share one store. */
export const uniqueName = (prefix = 't') => `${prefix}-${randomUUID().slice(0, 8)}`;
export const uniqueEmail = (prefix = 'user') => `${prefix}.${randomUUID().slice(0, 8)}@example.com`;

/** The problem body every error carries, with the request id of that response. */
export function problem(status: number, type: string, extra: Record<string, unknown> = {}) {
  return expect.objectContaining({
    type: `https://problems.backoffice.dev/${type}`,
    title: expect.any(String),
    status,
    detail: expect.any(String),
    requestId: expect.any(String),
    ...extra,
  });
}

/** The signing key the local API generated into its data folder (to mint test tokens). */
export function localSigningJwk(): Record<string, unknown> & { kid: string } {
  const keys = JSON.parse(readFileSync(join(inject('dataDir'), 'keys.json'), 'utf8')) as { signing: Record<string, unknown> & { kid: string } };
  return keys.signing;
}

export interface Account {
  tenantId: string;
  userId: string;
  email: string;
  password: string;
  cookies: Record<string, string>;
}

/** A sign-up with `adminEmail` (POST /tenants): the tenant's id and the token of the invitation e-mail it sent to that address. */
export async function signUp(adminEmail: string, options: { ip?: string; body?: Record<string, unknown> } = {}): Promise<{ tenantId: string; token: string }> {
  const tenant = await call<{ id: string }>('POST', '/tenants', {
    body: { name: uniqueName('tenant'), plan: 'STARTER', adminEmail, ...options.body },
    ip: options.ip,
  });
  if (tenant.status !== 201) throw new Error(`tenant creation failed: ${JSON.stringify(tenant.body)}`);
  const token = invitationTokenFor(adminEmail.toLowerCase());
  if (!token) throw new Error(`no invitation e-mail to ${adminEmail}`);
  return { tenantId: tenant.body.id, token };
}

/**
 * A fresh tenant with its administrator registered (and logged in through registration): the
 * sign-up with `adminEmail`, then the invitation e-mail's token, as a real administrator does.
 */
export async function newTenantWithAdmin(options: { ip?: string } = {}): Promise<Account> {
  const email = uniqueEmail('admin');
  const { tenantId, token } = await signUp(email, options);
  const password = 'correct horse battery';
  const registered = await call<{ user: { id: string } }>('POST', '/auth/register', {
    body: { name: 'Admin', email, password, tenantId, invitationToken: token },
    ip: options.ip,
  });
  if (registered.status !== 200) throw new Error(`registration failed: ${JSON.stringify(registered.body)}`);
  return { tenantId, userId: registered.body.user.id, email, password, cookies: cookiesFrom(registered) };
}

export interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: { filename: string; contentType: string; content: string }[];
  sentAt: string;
}

/** Messages the local outbox holds for one address, oldest first (the shared local API's, or that of the API on `dataDir`). */
export function outboxFor(address: string, dataDir = inject('dataDir')): OutboxMessage[] {
  const directory = join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(directory)
      .filter((file) => file.endsWith('.json'))
      .sort();
  } catch {
    return [];
  }
  return files
    .map((file) => JSON.parse(readFileSync(join(directory, file), 'utf8')) as OutboxMessage)
    .filter((message) => message.to === address)
    .sort((a, b) => a.sentAt.localeCompare(b.sentAt));
}

/** The value of a query parameter in the first link of a message. */
export function linkParameter(message: OutboxMessage, name: string): string | null {
  const link = /https?:\/\/\S+/.exec(message.text)?.[0];
  return link ? new URL(link).searchParams.get(name) : null;
}

/** The token of the newest invitation e-mail to an address (the link's `token`), or null. */
export function invitationTokenFor(address: string, dataDir?: string): string | null {
  const invitations = outboxFor(address, dataDir).filter(
    (message) => message.subject === 'You are invited to the back-office' && linkParameter(message, 'token') !== null,
  );
  const newest = invitations.at(-1);
  return newest ? linkParameter(newest, 'token') : null;
}

/** Invite an address as an administrator, then register it with the e-mail's token. */
export async function registerInvitee(admin: Account, email: string, password: string, name = 'Invitee'): Promise<ApiResponse> {
  const invited = await call('POST', '/auth/invitations', { cookies: admin.cookies, body: { email } });
  if (invited.status !== 201) throw new Error(`invitation failed: ${JSON.stringify(invited.body)}`);
  return call('POST', '/auth/register', { body: { name, email, password, tenantId: admin.tenantId, invitationToken: invitationTokenFor(email) } });
}

/** Log in; the response and its cookies. */
export async function login(email: string, password: string, options: { ip?: string; rememberMe?: boolean } = {}) {
  const response = await call('POST', '/auth/login', { body: { email, password, ...(options.rememberMe ? { rememberMe: true } : {}) }, ip: options.ip });
  return { response, cookies: cookiesFrom(response) };
}

/** The second factor `npm run create-admin` enrolled and printed. */
export interface PrintedSecondFactor {
  otpauthUri: string;
  secret: string;
  recoveryCodes: string[];
}

/** The otpauth URI, secret and recovery codes from `npm run create-admin`'s stdout; throws when they are missing. */
export function secondFactorFrom(stdout: string): PrintedSecondFactor {
  const otpauthUri = /^ {2}otpauth URI: (\S+)$/m.exec(stdout)?.[1];
  const secret = /^ {2}secret: ([A-Z2-7]+)$/m.exec(stdout)?.[1];
  const afterHeading = stdout.split(/^Recovery codes .*$/m)[1] ?? '';
  const recoveryCodes = [...afterHeading.matchAll(/^ {2}(\S+)$/gm)].map((match) => match[1] as string);
  if (!otpauthUri || !secret || recoveryCodes.length === 0) throw new Error(`no second factor in create-admin's output: ${stdout}`);
  return { otpauthUri, secret, recoveryCodes };
}

export interface SecondFactorOptions {
  ip?: string;
  rememberMe?: boolean;
  /** Prove the second step with this recovery code instead of a TOTP code. */
  recoveryCode?: string;
  /**
   * The instant the TOTP code is made for (Date.now() by default). A code's step is accepted
   * once per user: a second sign-in within the same 30 s needs `Date.now() + 30_000`.
   */
  codeAtMs?: number;
}

/**
 * The two-step login of an account with a second factor (every platform administrator):
 * the password (answered with `mfaRequired` and the challenge cookie), then a code of
 * `secret` (or a recovery code) to POST /auth/mfa/verify. `response` and `cookies` are the
 * second step's; `challenge` the first's. Throws when the password step opens no challenge.
 */
export async function signInWithSecondFactor(email: string, password: string, secret: string, options: SecondFactorOptions = {}) {
  const challenge = await call('POST', '/auth/login', { body: { email, password, ...(options.rememberMe ? { rememberMe: true } : {}) }, ip: options.ip });
  const mfaChallenge = cookiesFrom(challenge).mfaChallenge;
  if (challenge.status !== 200 || challenge.body.mfaRequired !== true || !mfaChallenge) {
    throw new Error(`the password step opened no second-factor challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`);
  }
  const body = options.recoveryCode !== undefined ? { recoveryCode: options.recoveryCode } : { code: codeAt(secret, options.codeAtMs ?? Date.now()) };
  const response = await call('POST', '/auth/mfa/verify', { cookies: { mfaChallenge }, body, headers: { origin: allowedOrigin() }, ip: options.ip });
  return { challenge, response, cookies: cookiesFrom(response) };
}

/**
 * Point this test process's repositories at the running local API's store (for the tests
 * that drive a job or a clock in process), with the same configuration it runs with.
 */
export async function useLocalStoreInProcess(): Promise<void> {
  const { applyLocalEnvironment } = await import('../../local/environment');
  const { readRuntimeInfo } = await import('../../local/runtime');
  const { resetConfig } = await import('../../lib/config');
  const dataDir = inject('dataDir');
  const runtime = readRuntimeInfo(dataDir);
  if (!runtime) throw new Error('the local API is not running');
  await applyLocalEnvironment({ dataDir, port: 0, dynamoPort: 0 }, runtime.dynamoEndpoint);
  resetConfig();
}

/**
 * In process, on a table of the file's own in the local API's DynamoDB Local (created before
 * its tests, deleted after): for a file that runs the daily jobs, which work on every tenant of
 * their table, when another file's run on the shared table at the same time would change what it
 * asserts (or the other way round).
 */
export function useTableOfItsOwn(prefix: string): void {
  const table = `${prefix}-${randomUUID().slice(0, 8)}`;
  let endpoint = '';
  let previous: string | undefined;
  beforeAll(async () => {
    await useLocalStoreInProcess();
    const { readRuntimeInfo } = await import('../../local/runtime');
    const { ensureTable } = await import('../../local/dynamodb-local');
    const { resetConfig } = await import('../../lib/config');
    const runtime = readRuntimeInfo(inject('dataDir'));
    if (!runtime) throw new Error('the local API is not running');
    endpoint = runtime.dynamoEndpoint;
    await ensureTable(endpoint, table);
    previous = process.env.TABLE_NAME;
    process.env.TABLE_NAME = table;
    resetConfig();
  });
  afterAll(async () => {
    const { localDynamoClient } = await import('../../local/dynamodb-local');
    const { resetConfig } = await import('../../lib/config');
    const { DeleteTableCommand } = await import('@aws-sdk/client-dynamodb');
    process.env.TABLE_NAME = previous;
    resetConfig();
    const client = localDynamoClient(endpoint);
    await client.send(new DeleteTableCommand({ TableName: table }));
    client.destroy();
  });
}

/**
 * Rate limits count in fixed windows (lib/rate-limit.ts): attempts that straddle a window's
 * end start counting again. A test that counts up to a limit over HTTP, whose server clock it
 * cannot set, first waits out the current window when fewer than `needMs` of it are left.
 */
export async function clearOfWindowEnd(windowSeconds: number, needMs = 20_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < needMs) await new Promise((resolveWait) => setTimeout(resolveWait, left + 50));
}

/** The `Link: <…>; rel="next"` target of a list page, or null on the last page. */
export function nextLink(response: ApiResponse): string | null {
  const link = response.headers.get('link');
  const match = link ? /^<([^>]+)>; rel="next"$/.exec(link) : null;
  return match?.[1] ?? null;
}

/** Every item of a paged list: its first page, then each `Link: rel="next"` until there is none. */
export async function allPages<T>(path: string, cookies: Record<string, string>): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let next: string | null = path;
  let pages = 0;
  while (next) {
    const page: ApiResponse<T[]> = await call<T[]>('GET', next, { cookies });
    if (page.status !== 200) throw new Error(`GET ${next}: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...page.body);
    pages += 1;
    next = nextLink(page);
  }
  return { items, pages };
}
