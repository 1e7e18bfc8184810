import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/tenants/create-tenant';
import { jsonPost, lambdaContext } from '../../tools/events';
import { parsed, problem, problemHeaders } from './responses';

/**
 * The body as API Gateway hands it over (on POST /tenants): a payload that is not text
 * arrives base64-encoded, and is decoded strictly; the JSON rules the parser does not keep.
 */

const ddb = mockClient(DynamoDBDocumentClient);
const REQUEST_ID = 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef';
const invoke = (event: Parameters<typeof handler>[0]) => handler(event, lambdaContext());
const base64Post = (bytes: Buffer) => ({ ...jsonPost('/tenants', bytes.toString('base64')), isBase64Encoded: true });

beforeEach(() => {
  ddb.reset();
  // The name is free (POST /tenants looks it up before it counts anything else).
  ddb.on(GetCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(UpdateCommand).resolves({});
});

describe('a base64-encoded body', () => {
  it('is decoded and read like any other when it is UTF-8', async () => {
    const result = await invoke(base64Post(Buffer.from(JSON.stringify({ name: 'cafe-sao-joao', plan: 'STARTER', brandName: 'Café São João' }))));

    expect(result.statusCode).toBe(201);
    expect(JSON.parse(result.body)).toEqual(expect.objectContaining({ brandName: 'Café São João' }));
  });

  it('is a 400 when its bytes are not UTF-8, and nothing is written', async () => {
    const latin1 = Buffer.concat([Buffer.from('{"name":"cafe","plan":"STARTER","brandName":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);

    const result = await invoke(base64Post(latin1));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('bad-request', 'Bad request', 400, 'The request body is not valid UTF-8', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('the JSON rules beyond the parser', () => {
  it('refuses a body nested deeper than 32 levels before validation recurses into it', async () => {
    const result = await invoke(jsonPost('/tenants', `{"name":"acme","plan":"STARTER","brandName":${'['.repeat(10_000)}${']'.repeat(10_000)}}`));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('bad-request', 'Bad request', 400, 'The request body is nested deeper than 32 levels', REQUEST_ID),
    });
  });

  it('names a duplicate key instead of keeping the last one', async () => {
    const result = await invoke(jsonPost('/tenants', '{"name":"acme","plan":"STARTER","plan":"ENTERPRISE"}'));

    expect(parsed(result)).toEqual({
      statusCode: 400,
      headers: problemHeaders(),
      body: problem('validation', 'Invalid request', 400, 'plan: is given more than once', REQUEST_ID, [{ field: 'plan', message: 'is given more than once' }]),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});
