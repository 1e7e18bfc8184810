import { randomUUID } from 'node:crypto';
import { BatchGetCommand, DynamoDBDocumentClient, DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler } from '../../functions/users/anonymize-user';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { keys } from '../../lib/db/keys';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { expectedAuditPuts } from '../support/audit-puts';
import { storedUser } from '../support/items';
import { testPrincipal } from '../support/principal';
import { counterKey, takeSlot, windowAt } from '../support/rate-limits';
import { jsonHeaders, parsed, problem, problemHeaders } from './responses';

/**
 * POST /users/{id}/anonymize: a removed user's name leaves each copy of the entries they made,
 * and their name and e-mail the changes of the user entries about them; ids, actions and
 * times stay; what is left of their partition is deleted; the call records its own entry.
 */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'test-table';
const REQUEST_ID = 'anonymize-request-1';
const NOW = new Date('2026-11-21T23:15:00.000Z');

const tenantId = randomUUID();
const removedId = randomUUID();
const admin: Principal = testPrincipal({ tenantId, role: 'ADMIN', name: 'Carla Dias', email: 'carla@acme.example' });
const scope = { tenantId };

const entry = <F extends Record<string, unknown>>(occurredAt: string, fields: F) => ({
  type: 'AuditEntry',
  id: randomUUID(),
  occurredAt,
  requestId: 'r-1',
  sourceIp: '198.51.100.7',
  userAgent: 'vitest',
  changes: null as unknown,
  ttl: 1_900_000_000,
  ...fields,
});
/** A login of the removed user (their actor list), and an administrator's change about them whose changes hold their e-mail (their resource list). */
const login = entry('2026-11-20T10:00:00.000Z', {
  actor: { type: 'user', id: removedId, name: 'Bruno Lima' },
  action: 'auth.login',
  resource: { type: 'session', id: randomUUID() },
});
const change = entry('2026-11-20T11:00:00.000Z', {
  actor: { type: 'user', id: admin.userId, name: admin.name },
  action: 'user.role_changed',
  resource: { type: 'user', id: removedId },
  changes: [
    { field: 'email', before: 'bruno@acme.example', after: 'bruno@new.example' },
    { field: 'role', before: 'MEMBER', after: 'ADMIN' },
  ],
});

const call = (caller: Principal = admin, id: string = removedId) =>
  handler(
    proxyEvent({
      method: 'POST',
      resource: '/users/{id}/anonymize',
      path: `/users/${id}/anonymize`,
      pathParameters: { id },
      requestId: REQUEST_ID,
      authorizer: toAuthorizerContext(caller),
      headers: { Origin: ALLOWED_ORIGIN, 'User-Agent': 'vitest' },
    }),
    lambdaContext(),
  );

const actorList = { ':key': keys.auditOfActor(scope, removedId).pk, ':from': '0', ':to': '~' };
const resourceList = { ':key': keys.auditOfResource(scope, removedId).pk, ':from': '0', ':to': '~' };
/** The user's removal from this tenant, in its trail: what makes it this tenant's to anonymize. */
const removal = entry('2026-11-21T09:00:00.000Z', {
  actor: { type: 'user', id: admin.userId, name: admin.name },
  action: 'user.removed',
  resource: { type: 'user', id: removedId },
});
/** The removal's lookup (the resource list, filtered to `user.removed`): registered last, so a test's own resource list does not answer it. */
const withRemoval = () => ddb.on(QueryCommand, { ExpressionAttributeValues: { ...resourceList, ':action': 'user.removed' } }).resolves({ Items: [removal] });

beforeEach(() => {
  ddb.reset();
  // The entries' origins (IP address, User-Agent) are items apart, read by key: none here.
  ddb.on(BatchGetCommand).resolves({ Responses: {} });
  ddb.on(UpdateCommand).resolves({});
  ddb.on(DeleteCommand).resolves({});
  ddb.on(TransactWriteCommand).resolves({});
  ddb.on(GetCommand).resolves({});
  ddb.on(QueryCommand).resolves({ Items: [] });
  ddb.on(QueryCommand, { ExpressionAttributeValues: actorList }).resolves({ Items: [login] });
  ddb.on(QueryCommand, { ExpressionAttributeValues: resourceList }).resolves({ Items: [change] });
  ddb
    .on(QueryCommand, { ExpressionAttributeValues: { ':pk': keys.userPartition(tenantId, removedId).pk } })
    .resolves({ Items: [keys.session(tenantId, removedId, 's-1')] });
  withRemoval();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

/** The update of one copy of an entry: its actor and changes, on condition it is still that entry. */
const rewrite = (key: { pk: string; sk: string }, id: string, actor: unknown, changes: unknown) => ({
  TableName: TABLE,
  Key: key,
  UpdateExpression: 'SET #actor = :actor, #changes = :changes',
  ConditionExpression: 'attribute_exists(pk) AND #id = :id',
  ExpressionAttributeNames: { '#actor': 'actor', '#changes': 'changes', '#id': 'id' },
  ExpressionAttributeValues: { ':actor': actor, ':changes': changes, ':id': id },
});

describe('POST /users/{id}/anonymize', () => {
  it("rewrites every copy of the removed user's entries, deletes what is left of them and records the call", async () => {
    const result = await call();

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: { id: removedId, name: 'Anonymized user', email: `anonymized+${removedId}@invalid`, complete: true },
    });
    const window = windowAt(NOW.getTime(), 3600);
    const anonymizedChanges = [
      { field: 'email', before: `anonymized+${removedId}@invalid`, after: `anonymized+${removedId}@invalid` },
      { field: 'role', before: 'MEMBER', after: 'ADMIN' },
    ];
    const loginResource = (login.resource as { id: string }).id;
    expect(ddb.commandCalls(UpdateCommand).map((update) => update.args[0].input)).toEqual([
      takeSlot(counterKey('POST /users/{id}/anonymize', admin.userId, window.start), 30, window.endEpoch),
      // The newer entry first: the administrator's change about the user (the actor stays), in its three copies.
      rewrite(keys.auditEntry(scope, change.occurredAt, change.id), change.id, change.actor, anonymizedChanges),
      rewrite(keys.auditByActor(scope, admin.userId, change.occurredAt, change.id), change.id, change.actor, anonymizedChanges),
      rewrite(keys.auditByResource(scope, removedId, change.occurredAt, change.id), change.id, change.actor, anonymizedChanges),
      // The user's login: the actor's name.
      rewrite(keys.auditEntry(scope, login.occurredAt, login.id), login.id, { type: 'user', id: removedId, name: 'Anonymized user' }, null),
      rewrite(keys.auditByActor(scope, removedId, login.occurredAt, login.id), login.id, { type: 'user', id: removedId, name: 'Anonymized user' }, null),
      rewrite(keys.auditByResource(scope, loginResource, login.occurredAt, login.id), login.id, { type: 'user', id: removedId, name: 'Anonymized user' }, null),
    ]);
    expect(ddb.commandCalls(DeleteCommand).map((deleted) => deleted.args[0].input)).toEqual([
      { TableName: TABLE, Key: keys.session(tenantId, removedId, 's-1') },
    ]);
    expect(ddb.commandCalls(TransactWriteCommand).map((write) => write.args[0].input)).toEqual([
      {
        TransactItems: expectedAuditPuts({
          trail: scope,
          action: 'user.anonymized',
          actor: { type: 'user', id: admin.userId, name: admin.name },
          resource: { type: 'user', id: removedId },
          requestId: REQUEST_ID,
          sourceIp: '203.0.113.10',
          userAgent: 'vitest',
          occurredAt: NOW.toISOString(),
        }),
      },
    ]);
  });

  it('writes nothing but its entry when the entries are anonymized already', async () => {
    const done = { ...login, actor: { type: 'user', id: removedId, name: 'Anonymized user' } };
    ddb.on(QueryCommand, { ExpressionAttributeValues: actorList }).resolves({ Items: [done] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: resourceList }).resolves({ Items: [] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ':pk': keys.userPartition(tenantId, removedId).pk } }).resolves({ Items: [] });
    withRemoval();

    const result = await call();

    expect(parsed(result)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: { id: removedId, name: 'Anonymized user', email: `anonymized+${removedId}@invalid`, complete: true },
    });
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });

  it('stops at 300 entries a call, answering complete: false, and the next call goes on from where its entry says', async () => {
    const many = Array.from({ length: 301 }, (_, index) =>
      entry(new Date(Date.parse('2026-11-20T00:00:00.000Z') - index * 1000).toISOString(), {
        actor: { type: 'user', id: removedId, name: 'Bruno Lima' },
        action: 'auth.refresh',
        resource: { type: 'session', id: 's-1' },
      }),
    );
    ddb.on(QueryCommand, { ExpressionAttributeValues: actorList }).resolves({ Items: many });
    ddb.on(QueryCommand, { ExpressionAttributeValues: resourceList }).resolves({ Items: [] });
    withRemoval();
    const last = many[300] as { occurredAt: string; id: string };
    const resumeAt = `${last.occurredAt}#${last.id}`;

    const first = await call();

    expect(parsed(first)).toEqual({
      statusCode: 200,
      headers: jsonHeaders(),
      body: { id: removedId, name: 'Anonymized user', email: `anonymized+${removedId}@invalid`, complete: false },
    });
    // The rate limit's slot, then three copies of each of the 300 newest entries.
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(1 + 300 * 3);
    const recorded = ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put?.Item;
    expect(recorded?.changes).toEqual([{ field: 'resumeAt', before: null, after: resumeAt }]);

    // The next call finds that entry first in the user's resource list, and reads the lists up to where it stopped.
    ddb.resetHistory();
    ddb.on(QueryCommand, { ExpressionAttributeValues: resourceList }).resolves({ Items: [{ ...recorded }] });
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ...actorList, ':to': resumeAt } }).resolves({ Items: [last] });
    withRemoval();

    const second = await call();

    expect(JSON.parse(second.body)).toEqual(expect.objectContaining({ complete: true }));
    expect(
      ddb
        .commandCalls(UpdateCommand)
        .slice(1)
        .map((update) => update.args[0].input.Key),
    ).toEqual([
      keys.auditEntry(scope, last.occurredAt, last.id),
      keys.auditByActor(scope, removedId, last.occurredAt, last.id),
      keys.auditByResource(scope, 's-1', last.occurredAt, last.id),
    ]);
    expect(ddb.commandCalls(TransactWriteCommand)[0]?.args[0].input.TransactItems?.[0]?.Put?.Item?.changes).toBeNull();
  });

  it('answers 409 while the user exists, 404 without a trace of it, 403 to a member, writing nothing', async () => {
    ddb.on(GetCommand, { Key: keys.user(tenantId, removedId) }).resolves({ Item: storedUser(tenantId, removedId) });
    expect(parsed(await call())).toEqual({
      statusCode: 409,
      headers: problemHeaders(),
      body: problem('conflict', 'Conflict', 409, 'The user still exists: remove it first (DELETE /users/{id})', REQUEST_ID),
    });

    const unknown = randomUUID();
    expect(parsed(await call(admin, unknown))).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, 'No such user', REQUEST_ID),
    });
    // An id the trail holds entries of, but never removed from this tenant (a platform administrator who acted here): 404 too.
    ddb.on(QueryCommand, { ExpressionAttributeValues: { ...resourceList, ':action': 'user.removed' } }).resolves({ Items: [] });
    ddb.on(GetCommand, { Key: keys.user(tenantId, removedId) }).resolves({});
    expect(parsed(await call())).toEqual({
      statusCode: 404,
      headers: problemHeaders(),
      body: problem('not-found', 'Not found', 404, 'No such user', REQUEST_ID),
    });

    expect(parsed(await call({ ...admin, role: 'MEMBER' }))).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, 'Only a tenant administrator may manage its users', REQUEST_ID),
    });
    expect(ddb.commandCalls(TransactWriteCommand)).toHaveLength(0);
    expect(ddb.commandCalls(DeleteCommand)).toHaveLength(0);
  });
});
