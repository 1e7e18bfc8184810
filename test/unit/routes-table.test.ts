import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_ACTIONS } from '../../lib/idempotency/repository';
import { authorizer, jobs, routes, TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS, writesTable, type TableAccess } from '../../lib/routes';

/** The manifest's table declarations (lib/routes, `table`): what the stack grants each function. */
describe('the table access of the manifest', () => {
  const declarations: [string, TableAccess][] = [
    ...Object.entries(routes).map(([id, route]): [string, TableAccess] => [id, route.table]),
    ['authorizer', authorizer.table],
    ...Object.entries(jobs).map(([id, job]): [string, TableAccess] => [`job ${id}`, job.table]),
  ];

  it('lists each action once, reads before writes, in one order, so that every line reads alike', () => {
    const order: readonly string[] = [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS];
    for (const [id, table] of declarations) {
      expect([...table.actions], id).toEqual([...new Set(table.actions)].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
    }
  });

  it("gives every idempotent route the Idempotency-Key's own actions", () => {
    for (const [id, route] of Object.entries(routes)) {
      if (!('idempotent' in route)) continue;
      expect(route.table.actions, id).toEqual(expect.arrayContaining([...IDEMPOTENCY_KEY_ACTIONS]));
    }
  });

  it('counts as writing a declaration with PutItem, UpdateItem, DeleteItem or BatchWriteItem, and no other', () => {
    expect(writesTable({ actions: ['GetItem', 'Query', 'ConditionCheckItem'], indexes: ['gsi1'] })).toBe(false);
    for (const action of TABLE_WRITE_ACTIONS) expect(writesTable({ actions: ['GetItem', action] }), action).toBe(true);
    expect(writesTable(routes.me.table)).toBe(false);
    expect(writesTable(authorizer.table)).toBe(false);
  });
});
