import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../api/problems';
import { useSaveMfaPolicy, useTenantSettings } from '../../api/settings';
import { SelectField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { adminMessages } from './messages';

type Policy = 'OFF' | 'ADMINS' | 'ALL';

/**
 * The tenant's second-factor policy, read with the tenant and changed by PATCH /tenants/{id}
 * { mfaPolicy } (a tenant administrator may change it).
 */
export function PolicySection({ tenantId }: { tenantId: string }) {
  const t = useMessages(adminMessages);
  const tenant = useTenantSettings(tenantId);
  const current = tenant.data?.mfaPolicy;
  const [choice, setChoice] = useState<Policy | ''>('');
  const save = useSaveMfaPolicy(tenantId);
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
