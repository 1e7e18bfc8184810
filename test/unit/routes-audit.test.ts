import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../lib/audit/model';
import { routes, workers, writesTable } from '../../lib/routes';

/** The manifest says what each route records in the audit trail (lib/routes, `audits`). */
describe('the audit actions of the manifest', () => {
  const all = Object.entries(routes).map(([id, route]) => ({ id, writes: writesTable(route.table), audits: 'audits' in route ? route.audits : undefined }));

  it('names at least one for every route that writes, and none for a route that only reads', () => {
    expect(all.filter((route) => route.writes && !route.audits?.length).map((route) => route.id)).toEqual([]);
    expect(all.filter((route) => !route.writes && route.audits !== undefined).map((route) => route.id)).toEqual([]);
  });

  it("covers every action but those only the operator's commands record (`npm run create-admin`, `npm run verify -- --fix`), with the workers' (a tenant's deletion)", () => {
    const named = new Set<string>([
      ...all.flatMap((route) => route.audits ?? []),
      ...Object.values(workers).flatMap((worker) => ('audits' in worker ? worker.audits : [])),
    ]);
    expect(AUDIT_ACTIONS.filter((action) => !named.has(action))).toEqual(['tenant.repaired', 'platform.admin_promoted']);
  });
});

describe('the audit trail through the API', () => {
  it('can be read and never edited nor deleted: its one route is a GET', () => {
    expect(
      Object.values(routes)
        .filter((route) => route.path.startsWith('/audit-events'))
        .map((route) => `${route.method} ${route.path}`),
    ).toEqual(['GET /audit-events']);
  });
});
