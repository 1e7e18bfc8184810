import { createHash, randomUUID } from 'node:crypto';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as login } from '../../functions/auth/login';
import { handler as register } from '../../functions/auth/register';
import { hashPassword } from '../../lib/auth/passwords';
import { keys } from '../../lib/db/keys';
import { logger } from '../../lib/log';
import { jsonPost, lambdaContext } from '../../tools/events';
import { batchGetAnswer, storedCredentials, storedEmail, storedInvitation, storedTenant, storedUser } from '../support/items';

const ddb = mockClient(DynamoDBDocumentClient);
const PASSWORD = 'a password that must never be logged';
const tenantId = randomUUID();

/** Every JSON line the logger writes while `run` runs. */
async function captureLogs(run: () => Promise<unknown>): Promise<{ lines: Record<string, unknown>[]; raw: string }> {
  const chunks: string[] = [];
  const capture = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const raw = chunks.join('');
  const lines = raw
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { lines, raw };
}

beforeEach(() => {
  ddb.reset();
  logger.setLogLevel('INFO');
});
afterEach(() => logger.setLogLevel('SILENT'));

describe('structured request logs', () => {
  it('log one line per request with requestId, method, status and duration, and no password, token or cookie', async () => {
    const invitationToken = 'jG2Yw0cXz3l1bZ5oQkM6sVdT8rN4uH7pA9eF1iC0xKq';
    ddb.on(GetCommand, { Key: keys.tenant(tenantId) }).resolves({ Item: storedTenant(tenantId, { baseAccountUserId: randomUUID() }) });
    ddb.on(GetCommand, { Key: keys.invitation(tenantId, 'ana@acme.example') }).resolves({
      Item: storedInvitation(tenantId, 'ana@acme.example', createHash('sha256').update(invitationToken).digest('hex'), {
        mailedAt: new Date(Date.now() - 3_600_000).toISOString(),
      }),
    });
    ddb.on(UpdateCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});
    const event = jsonPost(
      '/auth/register',
      { name: 'Ana', email: 'ana@acme.example', password: PASSWORD, tenantId, invitationToken },
      { requestId: 'log-request-1' },
    );

    let setCookies: string[] = [];
    const { lines, raw } = await captureLogs(async () => {
      const result = await register(event, lambdaContext());
      setCookies = (result.multiValueHeaders?.['Set-Cookie'] as string[] | undefined) ?? [];
    });

    expect(setCookies).toHaveLength(2);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'INFO',
        message: 'request',
        requestId: 'log-request-1',
        method: 'POST',
        resource: '/auth/register',
        status: 200,
        durationMs: expect.any(Number),
        // The Lambda context (Powertools): which function, which invocation, and whether it was a cold start.
        function_name: 'test-function',
        function_request_id: 'lambda-request-id',
        function_memory_size: '1024',
        cold_start: expect.any(Boolean),
      }),
    ]);
    expect(raw).not.toContain(PASSWORD);
    expect(raw).not.toContain(invitationToken);
    for (const cookie of setCookies) expect(raw).not.toContain(cookie.split(';')[0]?.split('=')[1] ?? 'missing');
    expect(raw).not.toMatch(/accessToken|refreshToken|cookie/i);
  });

  it('log a failed login as one line, without the password that was tried', async () => {
    const userId = randomUUID();
    ddb.on(GetCommand).resolves({});
    ddb.on(GetCommand, { Key: keys.email('ana@acme.example') }).resolves({ Item: storedEmail('ana@acme.example', tenantId, userId) });
    ddb
      .on(BatchGetCommand)
      .resolves(batchGetAnswer(storedTenant(tenantId), storedUser(tenantId, userId), storedCredentials(tenantId, userId, await hashPassword('the right one'))));
    ddb.on(UpdateCommand).resolves({});
    ddb.on(PutCommand).resolves({});

    const { lines, raw } = await captureLogs(() =>
      login(jsonPost('/auth/login', { email: 'ana@acme.example', password: PASSWORD }, { requestId: 'log-request-2' }), lambdaContext()),
    );

    expect(lines).toEqual([expect.objectContaining({ message: 'request', requestId: 'log-request-2', status: 401 })]);
    expect(raw).not.toContain(PASSWORD);
  });
});

describe('error logs', () => {
  it('log an unexpected failure with its stack for the operator, while the client gets a bare 500', async () => {
    ddb.on(GetCommand).rejects(new Error('boom: internal detail'));
    let body = '';
    const { lines } = await captureLogs(async () => {
      const result = await login(jsonPost('/auth/login', { email: 'ana@acme.example', password: PASSWORD }, { requestId: 'log-request-3' }), lambdaContext());
      body = result.body;
    });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'request failed',
        requestId: 'log-request-3',
        error: expect.objectContaining({ message: 'boom: internal detail' }),
      }),
      expect.objectContaining({ message: 'request', status: 500 }),
    ]);
    expect(JSON.parse(body)).toEqual({
      type: 'https://problems.backoffice.dev/internal',
      title: 'Internal server error',
      status: 500,
      detail: 'An unexpected error occurred',
      requestId: 'log-request-3',
    });
    expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  });
});
