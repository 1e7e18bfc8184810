import { useState } from 'react';
import { changeTenant, useRefreshTenants, useTenants } from '../../api/tenants';
import { Pager } from '../../components/Pager';
import { formatDate } from '../../format/date';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { adminMessages } from '../settings/messages';
import { useCursorStack } from '../../components/useCursorStack';
import { ConfirmCall } from '../../components/ConfirmCall';

/** A tenant as the list shows it (GET /tenants): `status` and `deletionDueAt` only when it is not active. */
interface ListedTenant {
  id: string;
  name: string;
  status?: 'SUSPENDED' | 'CLOSED' | 'DELETING';
  deletionDueAt?: string;
}

/** Closing or reopening one tenant: the dialog open for it. */
type Change = { kind: 'close' | 'reopen'; tenant: ListedTenant };

/** POST /tenants/{id}/close or /reopen, confirmed (platform administrators); the list is read again after it. */
function TenantChangeDialog({ change, onClose }: { change: Change; onClose: () => void }) {
  const t = useMessages(adminMessages);
  const refresh = useRefreshTenants();
  const { tenant, kind } = change;
  return (
    <ConfirmCall
      title={kind === 'close' ? t.closeTenantTitle(tenant.name) : t.reopenTenantTitle(tenant.name)}
      description={kind === 'close' ? t.closeTenantText(t.closeTenantDays) : t.reopenTenantText}
      confirmLabel={kind === 'close' ? t.closeTenant : t.reopenTenant}
      call={() => changeTenant(tenant.id, kind)}
      onDone={() => {
        void refresh();
        onClose();
      }}
      onClose={onClose}
    />
  );
}

/** Every tenant (GET /tenants), for platform administrators; for anyone else (403) nothing at all. */
export function TenantsSection() {
  const t = useMessages(adminMessages);
  const paging = useCursorStack();
  const tenants = useTenants(paging.cursor);
  const [change, setChange] = useState<Change | null>(null);
  if (tenants.error) return <ProblemAlert error={tenants.error} onRetry={() => void tenants.refetch()} />;
  if (!tenants.data) return null;
  const names = { OFF: t.policyOff, ADMINS: t.policyAdmins, ALL: t.policyAll };
  const statusOf = (tenant: ListedTenant) =>
    tenant.status === 'CLOSED'
      ? t.statusClosed(tenant.deletionDueAt ? formatDate(tenant.deletionDueAt) : '')
      : tenant.status === 'DELETING'
        ? t.statusDeleting
        : tenant.status === 'SUSPENDED'
          ? t.statusSuspended
          : t.statusActive;
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
              <th scope="col">{t.tenantStatus}</th>
              <th scope="col">{t.tenantActions}</th>
            </tr>
          </thead>
          <tbody>
            {tenants.data.items.map((tenant) => (
              <tr key={tenant.id}>
                <td>{tenant.name}</td>
                <td>{tenant.brandName ?? ''}</td>
                <td>{t.plans(tenant.plan)}</td>
                <td>{names[tenant.mfaPolicy]}</td>
                <td>{statusOf(tenant)}</td>
                <td>
                  {tenant.status === undefined ? (
                    <button type="button" className="button" aria-label={t.closeTenantLabel(tenant.name)} onClick={() => setChange({ kind: 'close', tenant })}>
                      {t.closeTenant}
                    </button>
                  ) : tenant.status === 'CLOSED' ? (
                    <button
                      type="button"
                      className="button"
                      aria-label={t.reopenTenantLabel(tenant.name)}
                      onClick={() => setChange({ kind: 'reopen', tenant })}
                    >
                      {t.reopenTenant}
                    </button>
                  ) : null}
                </td>
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
      {change ? <TenantChangeDialog change={change} onClose={() => setChange(null)} /> : null}
    </section>
  );
}
