import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { adminMessages } from './messages';
import { useCursorStack } from './paging';
import { tenantsQuery } from './PolicySection';

/** Every tenant (GET /tenants), for platform administrators; for anyone else (403) nothing at all. */
export function TenantsSection() {
  const t = useMessages(adminMessages);
  const paging = useCursorStack();
  const tenants = useQuery({ ...tenantsQuery(paging.cursor), placeholderData: keepPreviousData });
  if (tenants.error) return <ProblemAlert error={tenants.error} onRetry={() => void tenants.refetch()} />;
  if (!tenants.data) return null;
  const names = { OFF: t.policyOff, ADMINS: t.policyAdmins, ALL: t.policyAll };
  return (
    <section className="card" aria-labelledby="tenants-title">
      <h2 id="tenants-title">{t.tenantsTitle}</h2>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{t.tenantsCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{t.slug}</th>
              <th scope="col">{t.brandName}</th>
              <th scope="col">{t.plan}</th>
              <th scope="col">{t.policyTitle}</th>
            </tr>
          </thead>
          <tbody>
            {tenants.data.items.map((tenant) => (
              <tr key={tenant.id}>
                <td>{tenant.name}</td>
                <td>{tenant.brandName ?? ''}</td>
                <td>{t.plans(tenant.plan)}</td>
                <td>{names[tenant.mfaPolicy]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        label={t.tenantsPager}
        page={paging.page}
        hasNext={Boolean(tenants.data.nextCursor)}
        onPage={(page) => {
          if (page < paging.page) paging.previous();
          else if (tenants.data?.nextCursor) paging.next(tenants.data.nextCursor);
        }}
      />
    </section>
  );
}
