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

/**
 * The tenant's second-factor policy: PATCH /tenants/{id} { mfaPolicy } (a tenant administrator
 * may change it). No route lets a tenant administrator read it, so the current value is shown
 * only when known: from the tenant list (platform administrators) or the answer of a save.
 */
export function PolicySection({ tenantId }: { tenantId: string }) {
  const t = useMessages(adminMessages);
  const queryClient = useQueryClient();
  const tenants = useQuery(tenantsQuery(undefined));
  const listed = tenants.data?.items.find((tenant) => tenant.id === tenantId)?.mfaPolicy;
  const [saved, setSaved] = useState<Policy | undefined>();
  const current = saved ?? listed;
  const [choice, setChoice] = useState<Policy | ''>('');
  const save = useMutation({
    mutationFn: (mfaPolicy: Policy) => unwrap(api.PATCH('/tenants/{id}', { params: { path: { id: tenantId } }, body: { mfaPolicy } })),
    onSuccess: async (tenant) => {
      setSaved(tenant.mfaPolicy);
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
      <p>{current ? t.policyCurrent(names[current]) : t.policyUnknown}</p>
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
