import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * An account on a local API started with `startLocalApi` (tools/local-api.ts), opened the
 * only way accounts open: `POST /tenants` with `adminEmail` e-mails an invitation, whose
 * link's `token` `POST /auth/register` takes. The local mailer writes every message into
 * `<dataDir>/outbox/*.json`, where the token is read.
 */
export interface SignedUp {
  tenantId: string;
  userId: string;
  email: string;
  password: string;
  /** The session's cookies, as a Cookie header. */
  cookie: string;
}

interface OutboxMessage {
  to: string;
  text: string;
  sentAt: string;
}

/** The `token` of the newest message to `email` whose first link has one, or undefined. */
export function invitationToken(dataDir: string, email: string): string | undefined {
  const directory = join(dataDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(directory).filter((file) => file.endsWith('.json'));
  } catch {
    return undefined;
  }
  const tokens = files
    .map((file) => JSON.parse(readFileSync(join(directory, file), 'utf8')) as OutboxMessage)
    .filter((message) => message.to === email)
    .sort((a, b) => a.sentAt.localeCompare(b.sentAt))
    .map((message) => {
      const link = /https?:\/\/\S+/.exec(message.text)?.[0];
      return link ? new URL(link).searchParams.get('token') : null;
    })
    .filter((token): token is string => token !== null);
  return tokens.at(-1);
}

async function post(url: string, path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown>; cookies: string[] }> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown>, cookies: response.headers.getSetCookie() };
}

/** A new tenant and its administrator, signed in. Throws, saying why, when a step fails. */
export async function signUp(
  url: string,
  dataDir: string,
  account: { tenantName: string; name: string; email: string; password: string; plan?: string },
): Promise<SignedUp> {
  const tenant = await post(url, '/tenants', { name: account.tenantName, plan: account.plan ?? 'ENTERPRISE', adminEmail: account.email });
  if (tenant.status !== 201) throw new Error(`POST /tenants answered ${tenant.status}: ${JSON.stringify(tenant.json)}`);
  const tenantId = String(tenant.json.id);
  let token = invitationToken(dataDir, account.email);
  for (let waited = 0; token === undefined && waited < 5_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    token = invitationToken(dataDir, account.email);
  }
  if (token === undefined) throw new Error(`no invitation for ${account.email} in ${join(dataDir, 'outbox')}`);
  const registered = await post(url, '/auth/register', {
    name: account.name,
    email: account.email,
    password: account.password,
    tenantId,
    invitationToken: token,
  });
  if (registered.status !== 200) throw new Error(`POST /auth/register answered ${registered.status}: ${JSON.stringify(registered.json)}`);
  const user = registered.json.user as { id: string };
  return {
    tenantId,
    userId: user.id,
    email: account.email,
    password: account.password,
    cookie: registered.cookies.map((line) => line.split(';')[0]).join('; '),
  };
}
