import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoProxy, type DynamoProxy } from '../../local/bundles/dynamo-proxy';
import type { PolicyStatement } from '../../local/bundles/iam';

const TABLE_ARN = 'arn:aws:dynamodb:us-east-1:000000000000:table/backoffice';
const ROLE_SESSION = 'arn:aws:sts::000000000000:assumed-role/Backoffice-dev-MeFunctionRole/MeFunction';
const readOnly: PolicyStatement[] = [{ Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:Query'], Resource: TABLE_ARN }];

/** A stand-in for DynamoDB Local: records what reaches it and answers an empty GetItem. */
let upstream: Server;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let proxy: DynamoProxy;
const logged: string[] = [];

const clientAs = (accessKeyId: string) =>
  new DynamoDBClient({ endpoint: proxy.endpoint, region: 'us-east-1', credentials: { accessKeyId, secretAccessKey: 'local' }, maxAttempts: 1 });

beforeAll(async () => {
  upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
      response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.0' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolveListen) => upstream.listen(0, '127.0.0.1', resolveListen));
  const address = upstream.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  proxy = await startDynamoProxy({
    target: `http://127.0.0.1:${port}`,
    caller: (accessKeyId) => (accessKeyId === 'MeFunction' ? { functionId: 'MeFunction', roleSessionArn: ROLE_SESSION, statements: readOnly } : undefined),
    context: { tableArn: (name) => `arn:aws:dynamodb:us-east-1:000000000000:table/${name}`, keys: () => ({ partitionKey: 'pk', sortKey: 'sk', indexes: {} }) },
    log: (line) => logged.push(line),
  });
});

afterAll(async () => {
  await proxy.stop();
  await new Promise((resolveClose) => upstream.close(resolveClose));
});

describe('the IAM proxy in front of DynamoDB Local', () => {
  it('forwards an allowed call unchanged, signature included', async () => {
    received.length = 0;
    const answer = await clientAs('MeFunction').send(new GetItemCommand({ TableName: 'backoffice', Key: { pk: { S: 'TENANT#t1' }, sk: { S: 'USER#u1' } } }));

    expect(answer.Item).toBeUndefined();
    expect(received).toHaveLength(1);
    expect(received[0]?.headers['x-amz-target']).toBe('DynamoDB_20120810.GetItem');
    expect(received[0]?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=MeFunction\/\d{8}\/us-east-1\/dynamodb\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.parse(received[0]?.body ?? '')).toEqual({ TableName: 'backoffice', Key: { pk: { S: 'TENANT#t1' }, sk: { S: 'USER#u1' } } });
  });

  it('answers a call outside the grant as DynamoDB does: the SDK throws AccessDeniedException', async () => {
    received.length = 0;
    logged.length = 0;
    const error = await clientAs('MeFunction')
      .send(new PutItemCommand({ TableName: 'backoffice', Item: { pk: { S: 'TENANT#t1' }, sk: { S: 'USER#u1' } } }))
      .catch((caught: unknown) => caught as Error & { $metadata: { httpStatusCode?: number }; $fault: string });

    expect(error).toMatchObject({
      name: 'AccessDeniedException',
      message: `User: ${ROLE_SESSION} is not authorized to perform: dynamodb:PutItem on resource: ${TABLE_ARN} because no identity-based policy allows the dynamodb:PutItem action`,
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    expect(received).toEqual([]);
    expect(logged).toEqual([`[iam] MeFunction: AccessDeniedException on PutItem: missing grant dynamodb:PutItem on ${TABLE_ARN}: no statement grants it`]);
  });

  it('refuses a caller that is no function of the assembly', async () => {
    const error = await clientAs('SomeoneElse')
      .send(new GetItemCommand({ TableName: 'backoffice', Key: { pk: { S: 'A' }, sk: { S: 'B' } } }))
      .catch((caught: unknown) => caught as Error);

    expect(error).toMatchObject({ name: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' });
  });

  it('answers with the status, content type and body DynamoDB uses', async () => {
    const response = await fetch(proxy.endpoint, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': 'DynamoDB_20120810.DeleteItem',
        Authorization: 'AWS4-HMAC-SHA256 Credential=MeFunction/20261124/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=00',
      },
      body: JSON.stringify({ TableName: 'backoffice', Key: { pk: { S: 'A' }, sk: { S: 'B' } } }),
    });

    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    expect(await response.json()).toEqual({
      __type: 'com.amazon.coral.service#AccessDeniedException',
      Message: `User: ${ROLE_SESSION} is not authorized to perform: dynamodb:DeleteItem on resource: ${TABLE_ARN} because no identity-based policy allows the dynamodb:DeleteItem action`,
    });
  });
});
