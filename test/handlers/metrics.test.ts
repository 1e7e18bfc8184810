import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, DynamoDBDocumentClient, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as login } from '../../functions/auth/login';
import { hashPassword } from '../../lib/auth/passwords';
import { keys } from '../../lib/db/keys';
import { jsonPost, lambdaContext } from '../../tools/events';
import { batchGetAnswer, storedCredentials, storedEmail, storedTenant, storedUser } from '../support/items';

/**
 * The business and security metrics (lib/metrics.ts) as CloudWatch receives them: one EMF
 * line on stdout per data point, in the namespace the stack sets, with the `service`
 * dimension and the metric's own.
 */
const ddb = mockClient(DynamoDBDocumentClient);
const PASSWORD = 'correct horse battery staple';
const tenantId = randomUUID();
const userId = randomUUID();
const email = 'ana@acme.example';
const NAMESPACE = 'Backoffice/test-stack';
let passwordHash: string;

/** The EMF lines written while `run` runs (log lines, which have no `_aws`, are left out). */
async function emitted(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return chunks
    .join('')
    .split('\n')
    .filter((line) => line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** An EMF line of one Count metric with one dimension of its own. */
const point = (name: string, dimension: [string, string] | null, value = 1) => ({
  _aws: {
    Timestamp: expect.any(Number) as number,
    CloudWatchMetrics: [{ Namespace: NAMESPACE, Dimensions: [dimension ? ['service', dimension[0]] : ['service']], Metrics: [{ Name: name, Unit: 'Count' }] }],
  },
  service: 'backoffice-api',
  ...(dimension ? { [dimension[0]]: dimension[1] } : {}),
  [name]: value,
});

const attempt = (password: string, address = email) =>
  login(jsonPost('/auth/login', { email: address, password }, { requestId: 'metrics-1', sourceIp: '198.51.100.7' }), lambdaContext());

beforeAll(async () => {
  passwordHash = await hashPassword(PASSWORD);
});

beforeEach(() => {
  ddb.reset();
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  process.env.POWERTOOLS_METRICS_NAMESPACE = NAMESPACE;
  ddb.on(GetCommand).resolves({});
  ddb.on(GetCommand, { Key: keys.email(email) }).resolves({ Item: storedEmail(email, tenantId, userId) });
  ddb
    .on(BatchGetCommand)
    .resolves(
      batchGetAnswer(
        storedTenant(tenantId, { baseAccountUserId: userId }),
        storedUser(tenantId, userId, { role: 'ADMIN' }),
        storedCredentials(tenantId, userId, passwordHash),
      ),
    );
  ddb.on(PutCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
});

afterEach(() => {
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  delete process.env.POWERTOOLS_METRICS_NAMESPACE;
});

describe('metrics', () => {
  it('count a successful sign-in', async () => {
    const lines = await emitted(async () => expect((await attempt(PASSWORD)).statusCode).toBe(200));
    expect(lines).toEqual([point('Logins', ['outcome', 'success'])]);
  });

  it('count a failed sign-in, a wrong password and an unknown e-mail alike', async () => {
    const lines = await emitted(async () => {
      expect((await attempt('not the password')).statusCode).toBe(401);
      expect((await attempt(PASSWORD, 'nobody@acme.example')).statusCode).toBe(401);
    });
    expect(lines).toEqual([point('Logins', ['outcome', 'failure']), point('Logins', ['outcome', 'failure'])]);
  });

  it('count a throttled request by route, and no sign-in for it', async () => {
    ddb
      .on(UpdateCommand, { ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit' })
      .rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } }));
    const lines = await emitted(async () => expect((await attempt(PASSWORD)).statusCode).toBe(429));
    expect(lines).toEqual([point('ThrottledRequests', ['route', 'POST /auth/login'])]);
  });

  it('count a 5xx by route', async () => {
    ddb.on(GetCommand, { Key: keys.email(email) }).rejects(new Error('the store is down'));
    const lines = await emitted(async () => expect((await attempt(PASSWORD)).statusCode).toBe(500));
    expect(lines).toEqual([point('ServerErrors', ['route', 'POST /auth/login'])]);
  });

  it('write nothing when metrics are off, as in the local API', async () => {
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
    const lines = await emitted(async () => expect((await attempt('not the password')).statusCode).toBe(401));
    expect(lines).toEqual([]);
  });
});
