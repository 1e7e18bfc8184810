import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { isProblem } from './problems';
import { api, linkPage, unwrap } from './client';

/** Every tenant's query keys (platform administrators); the caller's own tenant is api/settings.ts's. */
export const tenantKeys = {
  all: ['admin', 'tenants'] as const,
  list: (cursor: string | undefined) => [...tenantKeys.all, cursor ?? ''] as const,
};

/** GET /tenants, one page (Link-header cursors): platform administrators only; anyone else's 403 is `null`, not an error. */
export function useTenants(cursor: string | undefined) {
  return useQuery({
    queryKey: tenantKeys.list(cursor),
    queryFn: async ({ signal }) => {
      try {
        return await linkPage(api.GET('/tenants', { params: { query: cursor ? { cursor } : {} }, signal }));
      } catch (error) {
        if (isProblem(error, 403)) return null;
        throw error;
      }
    },
    placeholderData: keepPreviousData,
  });
}

/** Closing or reopening a tenant (POST /tenants/{id}/close or /reopen, platform administrators): the call a confirmation makes. */
export const changeTenant = (id: string, kind: 'close' | 'reopen') => {
  const path = { params: { path: { id } } };
  return unwrap(kind === 'close' ? api.POST('/tenants/{id}/close', path) : api.POST('/tenants/{id}/reopen', path));
};

/** The tenants' list read again (after a close or a reopen). */
export function useRefreshTenants(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tenantKeys.all });
}
