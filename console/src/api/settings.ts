import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { auditKeys } from './audit';
import { api, unwrap, type MutationCallbacks } from './client';
import { tenantKeys } from './tenants';

type TenantBody = components['schemas']['UpdateTenantRequest'];
type Policy = NonNullable<TenantBody['mfaPolicy']>;

/** The caller's tenant, whose settings (the second-factor policy, the stock-low threshold) the administration shows and changes. */
export const settingsKeys = {
  tenant: (tenantId: string) => ['admin', 'tenant', tenantId] as const,
};

/** GET /tenants/{id}: the caller's tenant with its settings (its administrators). */
export function useTenantSettings(tenantId: string) {
  return useQuery({
    queryKey: settingsKeys.tenant(tenantId),
    queryFn: ({ signal }) => unwrap(api.GET('/tenants/{id}', { params: { path: { id: tenantId } }, signal })),
  });
}

const patchTenant = (tenantId: string, body: TenantBody) => unwrap(api.PATCH('/tenants/{id}', { params: { path: { id: tenantId } }, body }));
type Tenant = Awaited<ReturnType<typeof patchTenant>>;

/** PATCH /tenants/{id} with one setting: the answer is the tenant's query at once; then `refresh`'s queries are read again. */
function useSaveSetting<V>(
  tenantId: string,
  bodyOf: (value: V) => TenantBody,
  refresh: readonly (readonly unknown[])[],
  onSuccess?: (saved: Tenant, value: V) => unknown,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: V) => patchTenant(tenantId, bodyOf(value)),
    onSuccess: async (saved, value) => {
      queryClient.setQueryData(settingsKeys.tenant(tenantId), saved);
      onSuccess?.(saved, value);
      await Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}

/** The second-factor policy (PATCH /tenants/{id} { mfaPolicy }); the tenants' list shows it too. */
export function useSaveMfaPolicy(tenantId: string, { onSuccess }: MutationCallbacks<Tenant, Policy> = {}) {
  return useSaveSetting(tenantId, (mfaPolicy: Policy) => ({ mfaPolicy }), [tenantKeys.all], onSuccess);
}

/** The stock-low threshold in days, null to turn it off (PATCH /tenants/{id} { stockLowThresholdDays }); the audit trail records the change. */
export function useSaveStockLowThreshold(tenantId: string, { onSuccess }: MutationCallbacks<Tenant, number | null> = {}) {
  return useSaveSetting(tenantId, (stockLowThresholdDays: number | null) => ({ stockLowThresholdDays }), [tenantKeys.all, auditKeys.all], onSuccess);
}
