import { describe, expect, it } from 'vitest';
import { CREDENTIALS_PK_PREFIX } from '../../lib/db/keys';
import {
  authorizeDynamoCall,
  conditionHolds,
  dynamoAuthorizationRequests,
  evaluate,
  expressionAttributeNames,
  type DynamoContextOptions,
  type PolicyStatement,
} from '../../local/bundles/iam';

const TABLE = 'backoffice';
const TABLE_ARN = `arn:aws:dynamodb:us-east-1:000000000000:table/${TABLE}`;
const INDEX_ARN = `${TABLE_ARN}/index/gsi1`;
const options: DynamoContextOptions = {
  tableArn: (name) => `arn:aws:dynamodb:us-east-1:000000000000:table/${name}`,
  keys: (name) => (name === TABLE ? { partitionKey: 'pk', sortKey: 'sk', indexes: { gsi1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' } } } : undefined),
};

// The statements the synthesized template gives the functions (infra/constructs/functions.ts), resolved to local ARNs.
const logs: PolicyStatement = {
  Effect: 'Allow',
  Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
  Resource: 'arn:aws:logs:us-east-1:000000000000:log-group:Logs:*',
};
const read: PolicyStatement = {
  Effect: 'Allow',
  Action: ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query'],
  Resource: TABLE_ARN,
};
const indexQuery: PolicyStatement = { Effect: 'Allow', Action: 'dynamodb:Query', Resource: INDEX_ARN };
const write: PolicyStatement = {
  Effect: 'Allow',
  Action: ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
  Resource: TABLE_ARN,
};
const rateCounters: PolicyStatement = {
  Effect: 'Allow',
  Action: 'dynamodb:UpdateItem',
  Resource: TABLE_ARN,
  Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['RATE#*'] } },
};
const lastActiveAt: PolicyStatement = {
  Effect: 'Allow',
  Action: 'dynamodb:UpdateItem',
  Resource: TABLE_ARN,
  Condition: {
    'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'lastActiveAt'] },
    StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE'] },
  },
};
const readOnlyRateLimited = [logs, read, indexQuery, rateCounters];
const authorizer = [logs, read, indexQuery, lastActiveAt];
const readWrite = [logs, read, indexQuery, write];

const s = (value: string) => ({ S: value });

const counterUpdate = (pk: string) => ({
  TableName: TABLE,
  Key: { pk: s(pk), sk: s('WINDOW#1795302900000') },
  UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
  ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
  ExpressionAttributeNames: { '#count': 'count', '#ttl': 'ttl' },
  ExpressionAttributeValues: { ':one': { N: '1' }, ':ttl': { N: '1795306500' }, ':limit': { N: '10' } },
});

const sessionTouch = (extra: Record<string, unknown> = {}) => ({
  TableName: TABLE,
  Key: { pk: s('TENANT#t1'), sk: s('SESSION#s1') },
  UpdateExpression: 'SET lastActiveAt = :now',
  ConditionExpression: 'lastActiveAt < :stale',
  ExpressionAttributeValues: { ':now': s('2026-11-24T06:00:00.000Z'), ':stale': s('2026-11-24T05:59:00.000Z') },
  ...extra,
});

describe('dynamodb:LeadingKeys (the rate-limit counters of a read-only route)', () => {
  it('allows UpdateItem on a RATE# counter', () => {
    const decision = authorizeDynamoCall(readOnlyRateLimited, 'UpdateItem', counterUpdate('RATE#POST /auth/login#abc'), options);
    expect(decision).toEqual({
      allowed: true,
      statement: 3,
      request: {
        action: 'dynamodb:UpdateItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['RATE#POST /auth/login#abc'], 'dynamodb:Attributes': ['pk', 'sk', 'count', 'ttl'] },
      },
    });
  });

  it('refuses UpdateItem on any other partition key, naming the grant whose condition failed', () => {
    const decision = authorizeDynamoCall(readOnlyRateLimited, 'UpdateItem', counterUpdate('TENANT#t1'), options);
    expect(decision).toEqual({
      allowed: false,
      deny: 'implicit',
      request: {
        action: 'dynamodb:UpdateItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['TENANT#t1'], 'dynamodb:Attributes': ['pk', 'sk', 'count', 'ttl'] },
      },
      nearMisses: [
        { statement: 3, failed: { operator: 'ForAllValues:StringLike', key: 'dynamodb:LeadingKeys', policyValues: ['RATE#*'], requestValues: ['TENANT#t1'] } },
      ],
      missing: `dynamodb:UpdateItem on ${TABLE_ARN}: statement 3 grants it, but its condition ForAllValues:StringLike dynamodb:LeadingKeys ["RATE#*"] does not hold for ["TENANT#t1"]`,
    });
  });

  it('refuses PutItem even on a RATE# key: the counter grant is UpdateItem only', () => {
    const decision = authorizeDynamoCall(readOnlyRateLimited, 'PutItem', { TableName: TABLE, Item: { pk: s('RATE#x'), sk: s('WINDOW#1') } }, options);
    expect(decision).toMatchObject({ allowed: false, deny: 'implicit', nearMisses: [], missing: `dynamodb:PutItem on ${TABLE_ARN}: no statement grants it` });
  });
});

describe('dynamodb:Attributes (the lastActiveAt update of the authorizer)', () => {
  it('allows the update of lastActiveAt alone', () => {
    const decision = authorizeDynamoCall(authorizer, 'UpdateItem', sessionTouch(), options);
    expect(decision).toEqual({
      allowed: true,
      statement: 3,
      request: {
        action: 'dynamodb:UpdateItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['TENANT#t1'], 'dynamodb:Attributes': ['pk', 'sk', 'lastActiveAt'] },
      },
    });
  });

  it('refuses an update that also sets status', () => {
    const decision = authorizeDynamoCall(
      authorizer,
      'UpdateItem',
      sessionTouch({ UpdateExpression: 'SET lastActiveAt = :now, #status = :revoked', ExpressionAttributeNames: { '#status': 'status' } }),
      options,
    );
    expect(decision).toEqual({
      allowed: false,
      deny: 'implicit',
      request: {
        action: 'dynamodb:UpdateItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['TENANT#t1'], 'dynamodb:Attributes': ['pk', 'sk', 'lastActiveAt', 'status'] },
      },
      nearMisses: [
        {
          statement: 3,
          failed: {
            operator: 'ForAllValues:StringEquals',
            key: 'dynamodb:Attributes',
            policyValues: ['pk', 'sk', 'lastActiveAt'],
            requestValues: ['pk', 'sk', 'lastActiveAt', 'status'],
          },
        },
      ],
      missing: `dynamodb:UpdateItem on ${TABLE_ARN}: statement 3 grants it, but its condition ForAllValues:StringEquals dynamodb:Attributes ["pk","sk","lastActiveAt"] does not hold for ["pk","sk","lastActiveAt","status"]`,
    });
  });

  it('refuses the same update asking for ReturnValues ALL_NEW', () => {
    const decision = authorizeDynamoCall(authorizer, 'UpdateItem', sessionTouch({ ReturnValues: 'ALL_NEW' }), options);
    expect(decision).toMatchObject({
      allowed: false,
      nearMisses: [
        { statement: 3, failed: { operator: 'StringEqualsIfExists', key: 'dynamodb:ReturnValues', policyValues: ['NONE'], requestValues: ['ALL_NEW'] } },
      ],
    });
  });
});

describe('transactions', () => {
  const registration = (extra: Record<string, unknown>[]) => ({
    TransactItems: [
      { Put: { TableName: TABLE, Item: { pk: s('TENANT#t1'), sk: s('USER#u1'), name: s('Ana') }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { ConditionCheck: { TableName: TABLE, Key: { pk: s('TENANT#t1'), sk: s('TENANT') }, ConditionExpression: 'attribute_exists(pk)' } },
      ...extra,
    ],
  });

  it('authorizes each item by its own action', () => {
    expect(
      dynamoAuthorizationRequests('TransactWriteItems', registration([{ Delete: { TableName: TABLE, Key: { pk: s('INVITE#1'), sk: s('INVITE') } } }]), options),
    ).toEqual([
      { action: 'dynamodb:PutItem', resource: TABLE_ARN, context: { 'dynamodb:LeadingKeys': ['TENANT#t1'], 'dynamodb:Attributes': ['pk', 'sk', 'name'] } },
      { action: 'dynamodb:ConditionCheckItem', resource: TABLE_ARN, context: { 'dynamodb:LeadingKeys': ['TENANT#t1'], 'dynamodb:Attributes': ['pk', 'sk'] } },
      { action: 'dynamodb:DeleteItem', resource: TABLE_ARN, context: { 'dynamodb:LeadingKeys': ['INVITE#1'], 'dynamodb:Attributes': ['pk', 'sk'] } },
    ]);
    expect(authorizeDynamoCall(readWrite, 'TransactWriteItems', registration([]), options)).toMatchObject({ allowed: true });
  });

  it('refuses the whole transaction when one item is outside the grant', () => {
    const decision = authorizeDynamoCall(
      readOnlyRateLimited,
      'TransactWriteItems',
      {
        TransactItems: [
          { Update: counterUpdate('RATE#x#y') },
          { ConditionCheck: { TableName: TABLE, Key: { pk: s('TENANT#t1'), sk: s('TENANT') }, ConditionExpression: 'attribute_exists(pk)' } },
          { Put: { TableName: TABLE, Item: { pk: s('AUDIT#t1'), sk: s('E#1') } } },
        ],
      },
      options,
    );
    expect(decision).toEqual({
      allowed: false,
      deny: 'implicit',
      request: { action: 'dynamodb:PutItem', resource: TABLE_ARN, context: { 'dynamodb:LeadingKeys': ['AUDIT#t1'], 'dynamodb:Attributes': ['pk', 'sk'] } },
      nearMisses: [],
      missing: `dynamodb:PutItem on ${TABLE_ARN}: no statement grants it`,
    });
  });

  it('authorizes TransactGetItems as one GetItem per item', () => {
    const body = {
      TransactItems: [
        { Get: { TableName: TABLE, Key: { pk: s('A'), sk: s('1') }, ProjectionExpression: '#n, address.city', ExpressionAttributeNames: { '#n': 'name' } } },
      ],
    };
    expect(dynamoAuthorizationRequests('TransactGetItems', body, options)).toEqual([
      { action: 'dynamodb:GetItem', resource: TABLE_ARN, context: { 'dynamodb:LeadingKeys': ['A'], 'dynamodb:Attributes': ['pk', 'sk', 'name', 'address'] } },
    ]);
  });
});

describe('index queries', () => {
  const byEmail = {
    TableName: TABLE,
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': s('EMAIL#ana@example.com'), ':prefix': s('USER#') },
  };

  it('allows a Query on gsi1 with the index grant', () => {
    expect(authorizeDynamoCall(readWrite, 'Query', byEmail, options)).toEqual({
      allowed: true,
      statement: 2,
      request: {
        action: 'dynamodb:Query',
        resource: INDEX_ARN,
        context: { 'dynamodb:LeadingKeys': ['EMAIL#ana@example.com'], 'dynamodb:Attributes': ['gsi1pk', 'gsi1sk'] },
      },
    });
  });

  it('refuses a Query on gsi1 without the index grant: the table grant does not cover its indexes', () => {
    expect(authorizeDynamoCall([logs, read, write], 'Query', byEmail, options)).toEqual({
      allowed: false,
      deny: 'implicit',
      request: {
        action: 'dynamodb:Query',
        resource: INDEX_ARN,
        context: { 'dynamodb:LeadingKeys': ['EMAIL#ana@example.com'], 'dynamodb:Attributes': ['gsi1pk', 'gsi1sk'] },
      },
      nearMisses: [],
      missing: `dynamodb:Query on ${INDEX_ARN}: no statement grants it`,
    });
  });

  it('takes the Query leading key from a named partition key compared either way round', () => {
    const [request] = dynamoAuthorizationRequests(
      'Query',
      {
        TableName: TABLE,
        KeyConditionExpression: ':pk = #pk',
        ExpressionAttributeNames: { '#pk': 'pk' },
        ExpressionAttributeValues: { ':pk': s('TENANT#t1') },
        Select: 'COUNT',
      },
      options,
    );
    expect(request).toEqual({
      action: 'dynamodb:Query',
      resource: TABLE_ARN,
      context: { 'dynamodb:LeadingKeys': ['TENANT#t1'], 'dynamodb:Attributes': ['pk'], 'dynamodb:Select': ['COUNT'] },
    });
  });
});

describe('batches', () => {
  it('checks BatchWriteItem once per table with every leading key', () => {
    const body = {
      RequestItems: {
        [TABLE]: [{ PutRequest: { Item: { pk: s('RATE#a'), sk: s('1'), n: { N: '1' } } } }, { DeleteRequest: { Key: { pk: s('TENANT#t1'), sk: s('2') } } }],
      },
    };
    expect(dynamoAuthorizationRequests('BatchWriteItem', body, options)).toEqual([
      {
        action: 'dynamodb:BatchWriteItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': ['RATE#a', 'TENANT#t1'], 'dynamodb:Attributes': ['pk', 'sk', 'n'] },
      },
    ]);
    expect(authorizeDynamoCall(readOnlyRateLimited, 'BatchWriteItem', body, options)).toMatchObject({
      allowed: false,
      missing: `dynamodb:BatchWriteItem on ${TABLE_ARN}: no statement grants it`,
    });
  });
});

describe('the Deny of the credentials partition (ForAnyValue:StringLike on dynamodb:LeadingKeys)', () => {
  /** The statement bindTable adds for a function's undeclared credentials access, resolved to the local ARN. */
  const credentialsDeny = (actions: string | string[]): PolicyStatement => ({
    Sid: 'DenyCredentials',
    Effect: 'Deny',
    Action: actions,
    Resource: TABLE_ARN,
    Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`${CREDENTIALS_PK_PREFIX}*`] } },
  });
  const none = [...readWrite, credentialsDeny('dynamodb:*')];
  const writeOnly = [...readWrite, credentialsDeny(['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'])];
  const readOnly = [...readWrite, credentialsDeny(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'])];
  const user = { pk: s('TENANT#t1'), sk: s('USER#u1') };
  const credentials = { pk: s(`${CREDENTIALS_PK_PREFIX}t1#u1`), sk: s('SECRETS') };
  const getItem = (key: object) => ({ TableName: TABLE, Key: key });
  const batchGet = (...keys: object[]) => ({ RequestItems: { [TABLE]: { Keys: keys } } });
  const setHash = (key: object) => ({
    TableName: TABLE,
    Key: key,
    UpdateExpression: 'SET passwordHash = :hash',
    ExpressionAttributeValues: { ':hash': s('$2b$10$…') },
  });

  it('refuses a function without credentials access the credentials item, explicitly, whatever it is granted elsewhere', () => {
    expect(authorizeDynamoCall(none, 'GetItem', getItem(credentials), options)).toEqual({
      allowed: false,
      deny: 'explicit',
      statement: 4,
      request: {
        action: 'dynamodb:GetItem',
        resource: TABLE_ARN,
        context: { 'dynamodb:LeadingKeys': [`${CREDENTIALS_PK_PREFIX}t1#u1`], 'dynamodb:Attributes': ['pk', 'sk'] },
      },
      nearMisses: [],
      missing: `dynamodb:GetItem on ${TABLE_ARN} is explicitly denied by statement DenyCredentials`,
    });
    expect(authorizeDynamoCall(none, 'UpdateItem', setHash(credentials), options)).toMatchObject({ allowed: false, deny: 'explicit' });
    expect(authorizeDynamoCall(none, 'GetItem', getItem(user), options)).toMatchObject({ allowed: true, statement: 1 });
  });

  it('refuses a whole BatchGetItem with one credentials key among others (ForAnyValue), and allows one without', () => {
    expect(authorizeDynamoCall(none, 'BatchGetItem', batchGet(user, credentials), options)).toMatchObject({
      allowed: false,
      deny: 'explicit',
      request: { action: 'dynamodb:BatchGetItem', context: { 'dynamodb:LeadingKeys': ['TENANT#t1', `${CREDENTIALS_PK_PREFIX}t1#u1`] } },
    });
    expect(authorizeDynamoCall(none, 'BatchGetItem', batchGet(user, { pk: s('TENANT#t1'), sk: s('PROFILE') }), options)).toMatchObject({ allowed: true });
  });

  it('refuses a Query of the credentials partition, and a transaction with one credentials item', () => {
    const query = { TableName: TABLE, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': s(`${CREDENTIALS_PK_PREFIX}t1#u1`) } };
    expect(authorizeDynamoCall(none, 'Query', query, options)).toMatchObject({ allowed: false, deny: 'explicit' });
    const transaction = { TransactItems: [{ Put: { TableName: TABLE, Item: { ...user, name: s('Ana') } } }, { Update: setHash(credentials) }] };
    expect(authorizeDynamoCall(none, 'TransactWriteItems', transaction, options)).toMatchObject({
      allowed: false,
      deny: 'explicit',
      request: { action: 'dynamodb:UpdateItem' },
    });
    expect(authorizeDynamoCall(readWrite, 'TransactWriteItems', transaction, options)).toMatchObject({ allowed: true });
  });

  it("leaves a 'write' function its writes there and a 'read' function its reads", () => {
    expect(authorizeDynamoCall(writeOnly, 'UpdateItem', setHash(credentials), options)).toMatchObject({ allowed: true });
    expect(authorizeDynamoCall(writeOnly, 'GetItem', getItem(credentials), options)).toMatchObject({ allowed: false, deny: 'explicit' });
    expect(authorizeDynamoCall(readOnly, 'GetItem', getItem(credentials), options)).toMatchObject({ allowed: true });
    expect(authorizeDynamoCall(readOnly, 'BatchGetItem', batchGet(user, credentials), options)).toMatchObject({ allowed: true });
    expect(authorizeDynamoCall(readOnly, 'UpdateItem', setHash(credentials), options)).toMatchObject({ allowed: false, deny: 'explicit' });
  });

  it('does not apply to a request without partition keys: ForAnyValue fails on an absent key', () => {
    expect(
      evaluate([{ Effect: 'Allow', Action: 'dynamodb:Scan', Resource: TABLE_ARN }, credentialsDeny('dynamodb:*')], {
        action: 'dynamodb:Scan',
        resource: TABLE_ARN,
        context: {},
      }),
    ).toMatchObject({ allowed: true });
  });
});

describe('policy evaluation', () => {
  const request = { action: 'dynamodb:DeleteItem', resource: TABLE_ARN, context: {} };

  it('lets an explicit Deny win over any Allow', () => {
    const deny: PolicyStatement = { Sid: 'NoDeletes', Effect: 'Deny', Action: 'dynamodb:Delete*', Resource: '*' };
    expect(evaluate([...readWrite, deny], request)).toEqual({
      allowed: false,
      deny: 'explicit',
      statement: 4,
      request,
      nearMisses: [],
      missing: `dynamodb:DeleteItem on ${TABLE_ARN} is explicitly denied by statement NoDeletes`,
    });
  });

  it('matches actions case-insensitively and with wildcards, resources with wildcards', () => {
    expect(evaluate([{ Effect: 'Allow', Action: 'DynamoDB:*Item', Resource: 'arn:aws:dynamodb:*:*:table/back?ffice' }], request)).toMatchObject({
      allowed: true,
      statement: 0,
    });
    expect(evaluate([{ Effect: 'Allow', Action: 'dynamodb:*', Resource: `${TABLE_ARN}/index/*` }], request)).toMatchObject({ allowed: false });
  });

  it('evaluates NotAction and NotResource', () => {
    expect(evaluate([{ Effect: 'Allow', NotAction: 'dynamodb:DeleteItem', Resource: '*' }], request)).toMatchObject({ allowed: false });
    expect(evaluate([{ Effect: 'Allow', Action: '*', NotResource: INDEX_ARN }], request)).toMatchObject({ allowed: true });
  });
});

describe('condition operators', () => {
  const context = { 'dynamodb:LeadingKeys': ['RATE#a', 'RATE#b'], 'dynamodb:Select': ['COUNT'] };

  it.each([
    ['ForAllValues:StringLike', 'dynamodb:LeadingKeys', ['RATE#*'], true],
    ['ForAllValues:StringEquals', 'dynamodb:LeadingKeys', ['RATE#a'], false],
    ['ForAnyValue:StringEquals', 'dynamodb:LeadingKeys', ['RATE#a'], true],
    ['ForAnyValue:StringLike', 'dynamodb:LeadingKeys', ['RATE#b*'], true],
    ['ForAnyValue:StringLike', 'dynamodb:LeadingKeys', ['CREDENTIALS#*'], false],
    ['ForAllValues:StringEquals', 'dynamodb:Attributes', ['pk'], true], // an absent key passes ForAllValues, as on AWS
    ['ForAnyValue:StringEquals', 'dynamodb:Attributes', ['pk'], false],
    ['StringEquals', 'dynamodb:Select', ['COUNT'], true],
    ['stringequals', 'DynamoDB:select', ['COUNT'], true],
    ['StringNotEquals', 'dynamodb:Select', ['COUNT'], false],
    ['StringEquals', 'dynamodb:ReturnValues', ['NONE'], false],
    ['StringEqualsIfExists', 'dynamodb:ReturnValues', ['NONE'], true],
    ['StringNotEquals', 'dynamodb:ReturnValues', ['NONE'], true],
    ['StringEqualsIgnoreCase', 'dynamodb:Select', ['count'], true],
    ['StringNotLike', 'dynamodb:Select', ['C*'], false],
    ['Null', 'dynamodb:ReturnValues', ['true'], true],
    ['Null', 'dynamodb:Select', ['true'], false],
    ['NumericLessThan', 'dynamodb:Select', ['1'], false], // not evaluated: never holds
  ] as const)('%s %s %j is %s', (operator, key, values, expected) => {
    expect(conditionHolds(operator, key, values, context)).toBe(expected);
  });
});

describe('expressionAttributeNames', () => {
  it('names the top-level attributes of an expression, placeholders resolved, functions and keywords left out', () => {
    expect(expressionAttributeNames('SET #a.b[0] = :v, c = if_not_exists(c, :zero) REMOVE d ADD e :one DELETE f :set', { '#a': 'address' })).toEqual([
      'address',
      'c',
      'c',
      'd',
      'e',
      'f',
    ]);
    expect(expressionAttributeNames('attribute_not_exists(pk) AND NOT begins_with(#s, :p) OR size(tags) > :n', { '#s': 'status' })).toEqual([
      'pk',
      'status',
      'tags',
    ]);
  });
});
