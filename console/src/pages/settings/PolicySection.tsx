import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, linkPage, unwrap } from '../../api/client';
import { fieldErrors, isProblem } from '../../api/problems';
import { SelectField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { adminMessages } from './messages';

type Policy = 'OFF' | 'ADMINS' | 'ALL';

/** GET /tenants, one page (Link-header cursors): platform administrators only; anyone else's 403 is `null`, not an error. */
export const tenantsQuery = (cursor: string | undefined) => ({
  queryKey: ['admin', 'tenants', cursor ?? ''] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    try {
      return await linkPage(api.GET('/tenants', { params: { query: cursor ? { cursor } : {} }, signal }));
    } catch (error) {
      if (isProblem(error, 403)) return null;
      throw error;
    }
  },
});

export const tenantKey = (tenantId: string) => ['admin', 'tenant', tenantId] as const;

/** The caller's tenant with its settings (GET /tenants/{id}: its administrators), which the settings sections show and change. */
export const tenantQuery = (tenantId: string) => ({
  queryKey: tenantKey(tenantId),
  queryFn: ({ signal }: { signal: AbortSignal }) => unwrap(api.GET('/tenants/{id}', { params: { path: { id: tenantId } }, signal })),
});

/**
 * The tenant's second-factor policy, read with the tenant and changed by PATCH /tenants/{id}
 * { mfaPolicy } (a tenant administrator may change it).
 */
export function PolicySection({ tenantId }: { tenantId: string }) {
  const t = useMessages(adminMessages);
  const queryClient = useQueryClient();
  const tenant = useQuery(tenantQuery(tenantId));
  const current = tenant.data?.mfaPolicy;
  const [choice, setChoice] = useState<Policy | ''>('');
  const save = useMutation({
    mutationFn: (mfaPolicy: Policy) => unwrap(api.PATCH('/tenants/{id}', { params: { path: { id: tenantId } }, body: { mfaPolicy } })),
    onSuccess: async (saved) => {
      queryClient.setQueryData(tenantKey(tenantId), saved);
      await queryClient.invalidateQueries({ queryKey: ['admin', 'tenants'] });
    },
  });
  const names: Record<Policy, string> = { OFF: t.policyOff, ADMINS: t.policyAdmins, ALL: t.policyAll };
  const value = choice || current || 'OFF';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(value);
  };
  return (
    <section className="card" aria-labelledby="policy-title">
      <h2 id="policy-title">{t.policyTitle}</h2>
      {current ? <p>{t.policyCurrent(names[current])}</p> : null}
      {tenant.error ? <ProblemAlert error={tenant.error} onRetry={() => void tenant.refetch()} /> : null}
      <form className="form" onSubmit={onSubmit} noValidate aria-label={t.policyTitle}>
        {save.isSuccess ? (
          <div className="alert alert-ok" role="status">
            <p>{t.policySaved(names[save.data.mfaPolicy])}</p>
          </div>
        ) : null}
        {save.error ? <ProblemAlert error={save.error} /> : null}
        <SelectField
          label={t.policy}
          value={value}
          onValueChange={(next) => setChoice(next as Policy)}
          options={(['OFF', 'ADMINS', 'ALL'] as const).map((policy) => ({ value: policy, label: names[policy] }))}
          hint={t.policyWarning}
          error={fieldErrors(save.error).mfaPolicy}
        />
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t.savePolicy}
        </button>
      </form>
    </section>
  );
}
