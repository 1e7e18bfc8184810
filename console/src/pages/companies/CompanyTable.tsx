import { maskDocument } from '../../format/masks';
import { common } from '../../i18n/common';
import { useMessages } from '../../i18n';
import type { Company, CompanyStatus } from './form';
import { companyMessages } from './messages';

const BADGE: Record<CompanyStatus, string> = { ACTIVE: 'ok', DISABLED: 'warn', SUSPENDED: 'warn', BLOCKED: 'danger' };

/** One page of companies with their edit and status buttons (named after the company). */
export function CompanyTable({
  companies,
  busy,
  onEdit,
  onStatus,
}: {
  companies: readonly Company[];
  busy: boolean;
  onEdit: (company: Company) => void;
  onStatus: (company: Company) => void;
}) {
  const t = useMessages(companyMessages);
  const c = useMessages(common);
  return (
    <div className="table-wrap">
      <table aria-busy={busy || undefined}>
        <caption>{t.tableCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.name}</th>
            <th scope="col">{t.document}</th>
            <th scope="col">{t.email}</th>
            <th scope="col">{t.cityState}</th>
            <th scope="col">{t.taxRegime}</th>
            <th scope="col">{t.status}</th>
            <th scope="col">{c.actions}</th>
          </tr>
        </thead>
        <tbody>
          {companies.map((company) => (
            <tr key={company.id}>
              <td>{company.name}</td>
              <td className="company-nowrap">{maskDocument(company.document)}</td>
              <td>{company.email ?? ''}</td>
              <td>{company.address ? `${company.address.city}/${company.address.state}` : ''}</td>
              <td>{t.taxRegimeName(company.taxRegime)}</td>
              <td>
                <span className={`badge ${BADGE[company.status]}`}>{t.statusName(company.status)}</span>
              </td>
              <td>
                <div className="company-actions">
                  <button type="button" className="button secondary" aria-label={t.editCompany(company.name)} onClick={() => onEdit(company)}>
                    {c.edit}
                  </button>
                  <button type="button" className="button secondary" aria-label={t.changeStatusOf(company.name)} onClick={() => onStatus(company)}>
                    {t.changeStatus}
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
