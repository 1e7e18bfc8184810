import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditQuery, type AuditFilters } from '../pages/audit/logic';
import { api, unwrap } from './client';

export const auditKeys = {
  all: ['admin', 'audit'] as const,
  list: (filters: AuditFilters, cursor: string | undefined) => [...auditKeys.all, filters, cursor ?? ''] as const,
};

/** GET /audit-events, one page of the filtered trail (by `nextCursor`); the previous page stays shown while the next loads. */
export function useAuditEvents(filters: AuditFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: auditKeys.list(filters, cursor),
    queryFn: ({ signal }) => unwrap(api.GET('/audit-events', { params: { query: auditQuery(filters, cursor) }, signal })),
    placeholderData: keepPreviousData,
  });
}
