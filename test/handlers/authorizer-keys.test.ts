import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/auth/authorizer';
import { hashKeyText, keyPrefixOf, newKeyId, newKeyText } from '../../lib/api-keys/format';
import { keys } from '../../lib/db/keys';
import { authorizerEvent } from '../../tools/events';
import { storedTenant, type Item } from '../support/items';

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const NOW = new Date('2026-11-26T10:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

const tenantId = randomUUID();
const keyId = newKeyId(tenantId, NOW.getTime() - 86_400_000);
const keyText = newKeyText('live', keyId);

/** The key as stored: inventory write, dashboards read; used a minute ago. */
const keyItem = (overrides: Item = {}): Item => ({
  ...keys.apiKey(tenantId, keyId),
  type: 'ApiKey',
  id: keyId,
  tenantId,
  name: 'PDV Centro',
  scopes: { inventory: 'write', dashboards: 'read' },
  prefix: keyPrefixOf(keyText),
  createdBy: { id: randomUUID(), name: 'Ana' },
  createdAt: ago(86_400_000),
  lastUsedAt: ago(60_000),
  lastUsedIp: '203.0.113.9',
  secretHash: hashKeyText(keyText),
  ...overrides,
});

function storeHolds(...items: Item[]): void {
  ddb.on(BatchGetCommand).resolves({ Responses: { [TABLE]: items }, UnprocessedKeys: {} });
}

/** A server's request: the key as a bearer token, no Origin, no cookie. */
function keyEvent(
  input: { method?: string; resource?: string; authorization?: string; headers?: Record<string, string>; pathParameters?: Record<string, string> } = {},
): APIGatewayRequestAuthorizerEvent {
  const event = authorizerEvent({ method: input.method ?? 'POST', resource: input.resource ?? '/inventory/movements' });
  const headers: Record<string, string> = { Authorization: input.authorization ?? `Bearer ${keyText}`, ...input.headers };
  return {
    ...event,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    pathParameters: input.pathParameters ?? null,
  };
}

async function refusedWith401(decision: Promise<unknown>): Promise<void> {
  await expect(decision).rejects.toThrow(/^Unauthorized$/);
}

const allowedContext = {
  kind: 'api-key',
  tenantId,
  keyId,
  name: 'PDV Centro',
  companyId: '',
  role: 'ADMIN',
  platformAdmin: 'false',
  mfaEnrolmentRequired: 'false',
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  ddb.reset();
  storeHolds(storedTenant(tenantId), keyItem());
  ddb.on(UpdateCommand).resolves({});
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the REQUEST authorizer with an API key', () => {
  it('allows a key its scopes open, with the key as the principal, after one BatchGetItem of the key and its tenant', async () => {
    const event = keyEvent();
    const decision = await handler(event);

    expect(decision).toEqual({
      principalId: keyId,
      policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: event.methodArn }] },
      context: allowedContext,
    });
    const reads = ddb.commandCalls(BatchGetCommand);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.args[0].input).toEqual({
      RequestItems: { [TABLE]: { Keys: [keys.tenant(tenantId), keys.apiKey(tenantId, keyId)], ConsistentRead: true } },
    });
    // Used a minute ago: nothing is written.
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it("records the use at most once per 5 minutes: the time on the key, conditioned, then the address apart, expiring after the access records' 6 months", async () => {
    storeHolds(storedTenant(tenantId), keyItem({ lastUsedAt: ago(5 * 60_000) }));
    await handler(keyEvent());

    const writes = ddb.commandCalls(UpdateCommand);
    expect(writes.map((write) => write.args[0].input)).toEqual([
      {
        TableName: TABLE,
        Key: keys.apiKey(tenantId, keyId),
        UpdateExpression: 'SET lastUsedAt = :now REMOVE lastUsedIp',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :stale)',
        ExpressionAttributeValues: { ':now': NOW.toISOString(), ':stale': ago(5 * 60_000) },
      },
      {
        TableName: TABLE,
        Key: keys.apiKeyUse(keyId),
        UpdateExpression: 'SET #type = :type, tenantId = :tenant, lastUsedAt = :now, lastUsedIp = :ip, #ttl = :ttl',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
        ExpressionAttributeValues: {
          ':type': 'ApiKeyUse',
          ':tenant': tenantId,
          ':now': NOW.toISOString(),
          ':ip': expect.any(String) as string,
          ':ttl': NOW.getTime() / 1000 + 183 * 24 * 3600,
        },
      },
    ]);
  });

  it("writes no address when another request recorded the use meanwhile (the key's condition failed)", async () => {
    storeHolds(storedTenant(tenantId), keyItem({ lastUsedAt: ago(5 * 60_000) }));
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' }));
    await handler(keyEvent());
    expect(ddb.commandCalls(UpdateCommand).map((write) => write.args[0].input.Key)).toEqual([keys.apiKey(tenantId, keyId)]);
  });

  it.each([
    ['a one-character change', () => `${keyText.slice(0, 20)}${keyText[20] === 'a' ? 'b' : 'a'}${keyText.slice(21)}`],
    ['a truncated key', () => keyText.slice(0, -1)],
    ['not a key at all', () => 'garbage'],
    ['a test key on a live stage', () => newKeyText('test', keyId)],
  ])('refuses %s with 401 before any read', async (_, text) => {
    await refusedWith401(handler(keyEvent({ authorization: `Bearer ${text()}` })));
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('refuses an Authorization header that is not a bearer token with 401, before any read', async () => {
    await refusedWith401(handler(keyEvent({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` })));
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it.each<Record<string, string>>([{ Origin: 'https://shop.example' }, { 'Sec-Fetch-Site': 'same-origin' }, { 'sec-fetch-site': 'none' }])(
    'refuses a key sent from a browser (%o) with 401, before any read',
    async (browserHeader) => {
      await refusedWith401(handler(keyEvent({ headers: browserHeader })));
      expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
    },
  );

  it("takes a server's request with Sec-Fetch-Mode alone (Node's fetch sends it)", async () => {
    expect(await handler(keyEvent({ headers: { 'sec-fetch-mode': 'cors' } }))).toMatchObject({ context: allowedContext });
  });

  it('lets a request with both the cookie and a key through to a 400, with no principal and no read', async () => {
    const decision = await handler(keyEvent({ headers: { Cookie: 'accessToken=abc' } }));

    expect(decision).toMatchObject({
      principalId: 'refused',
      context: { refusal: 'both-credentials', detail: 'Send either the session cookie or an API key (Authorization: Bearer), not both' },
    });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('refuses a route that takes a session only (403), before any read', async () => {
    const decision = await handler(keyEvent({ method: 'GET', resource: '/auth/me' }));

    expect(decision).toMatchObject({
      principalId: 'refused',
      context: { refusal: 'forbidden', detail: 'API keys cannot use this route: it takes a signed-in session' },
    });
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(0);
  });

  it('refuses a resource its scopes do not open (403), naming what is missing', async () => {
    expect(await handler(keyEvent({ method: 'GET', resource: '/suppliers' }))).toMatchObject({
      context: { refusal: 'forbidden', detail: 'The API key may not read suppliers' },
    });
    expect(await handler(keyEvent({ method: 'GET', resource: '/inventory/dashboard/coverage' }))).toMatchObject({ context: allowedContext });
  });

  it.each([
    ['a revoked (deleted) key', () => storeHolds(storedTenant(tenantId))],
    [
      'a key whose secret was rolled with no overlap',
      () =>
        storeHolds(
          storedTenant(tenantId),
          keyItem({ secretHash: hashKeyText(newKeyText('live', keyId)), previousSecretHash: hashKeyText(keyText), previousExpiresAt: NOW.toISOString() }),
        ),
    ],
    ['an expired key', () => storeHolds(storedTenant(tenantId), keyItem({ expiresAt: NOW.toISOString() }))],
    ['a key of a suspended tenant', () => storeHolds(storedTenant(tenantId, { status: 'SUSPENDED' }), keyItem())],
  ])('refuses %s with 401', async (_, arrange) => {
    arrange();
    await refusedWith401(handler(keyEvent()));
  });

  it('takes the secret a roll replaced until the overlap ends', async () => {
    storeHolds(
      storedTenant(tenantId),
      keyItem({ secretHash: hashKeyText(newKeyText('live', keyId)), previousSecretHash: hashKeyText(keyText), previousExpiresAt: ago(-1000) }),
    );
    expect(await handler(keyEvent())).toMatchObject({ context: allowedContext });
  });

  it('keeps a key limited to one company to that company', async () => {
    const companyId = randomUUID();
    storeHolds(storedTenant(tenantId), keyItem({ scopes: { companies: 'write' }, companyId }));
    const limited = { ...allowedContext, companyId };

    expect(await handler(keyEvent({ method: 'PATCH', resource: '/companies/{id}', pathParameters: { id: companyId } }))).toMatchObject({ context: limited });
    expect(await handler(keyEvent({ method: 'GET', resource: '/companies' }))).toMatchObject({ context: limited });
    expect(await handler(keyEvent({ method: 'PATCH', resource: '/companies/{id}', pathParameters: { id: randomUUID() } }))).toMatchObject({
      context: { refusal: 'forbidden', detail: 'The API key is limited to another company' },
    });
    expect(await handler(keyEvent({ method: 'POST', resource: '/companies' }))).toMatchObject({
      context: { refusal: 'forbidden', detail: 'The API key is limited to one company and cannot create another' },
    });
  });
});
