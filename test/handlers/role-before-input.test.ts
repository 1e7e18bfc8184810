import { randomUUID } from 'node:crypto';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as deleteUser } from '../../functions/users/delete-user';
import { handler as getTenantExport } from '../../functions/tenants/get-tenant-export';
import { handler as retryWebhookDelivery } from '../../functions/webhooks/retry-webhook-delivery';
import { toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { ALLOWED_ORIGIN, lambdaContext, proxyEvent } from '../../tools/events';
import { testPrincipal } from '../support/principal';
import { parsed, problem, problemHeaders } from './responses';

/**
 * Who may call a route comes before what its request looks like: a member sending a malformed
 * id to an administrators' route gets 403, as with a well-formed one, never the 400 that
 * would tell the id's format; an administrator with the same id gets the 400. Nothing is read.
 */
const ddb = mockClient(DynamoDBDocumentClient);
const REQUEST_ID = 'role-before-input-1';
const tenantId = randomUUID();
const member: Principal = testPrincipal({ tenantId, role: 'MEMBER' });
const admin: Principal = testPrincipal({ tenantId, role: 'ADMIN' });

const event = (caller: Principal, method: string, resource: string, pathParameters: Record<string, string>) =>
  proxyEvent({
    method,
    resource,
    path: Object.entries(pathParameters).reduce((path, [name, value]) => path.replace(`{${name}}`, value), resource),
    pathParameters,
    requestId: REQUEST_ID,
    authorizer: toAuthorizerContext(caller),
    headers: { Origin: ALLOWED_ORIGIN },
  });

const CASES = [
  {
    name: 'POST /webhook-deliveries/{id}/retry',
    handler: retryWebhookDelivery,
    method: 'POST',
    resource: '/webhook-deliveries/{id}/retry',
    path: { id: 'not a delivery id' },
    detail: 'Only a tenant administrator may call this route',
  },
  {
    name: 'DELETE /users/{id}',
    handler: deleteUser,
    method: 'DELETE',
    resource: '/users/{id}',
    path: { id: 'not-a-uuid' },
    detail: 'Only a tenant administrator may call this route',
  },
  {
    name: 'GET /tenants/{id}/exports/{exportId}',
    handler: getTenantExport,
    method: 'GET',
    resource: '/tenants/{id}/exports/{exportId}',
    path: { id: tenantId, exportId: 'x' },
    detail: 'Only a platform administrator may call this route',
  },
] as const;

beforeEach(() => {
  ddb.reset();
});

describe('an administrators’ route given a malformed id', () => {
  it.each(CASES)('$name answers a member 403, and an administrator 400', async ({ handler, method, resource, path, detail }) => {
    expect(parsed(await handler(event(member, method, resource, path), lambdaContext()))).toEqual({
      statusCode: 403,
      headers: problemHeaders(),
      body: problem('forbidden', 'Forbidden', 403, detail, REQUEST_ID),
    });
    const caller = detail.includes('platform') ? { ...admin, platformAdmin: true } : admin;
    expect(parsed(await handler(event(caller, method, resource, path), lambdaContext())).statusCode).toBe(400);
    // At most the rate-limit counters a route counts its callers in (UpdateItem): nothing is read.
    expect(ddb.calls().filter((call) => !(call.args[0] instanceof UpdateCommand))).toEqual([]);
  });
});
