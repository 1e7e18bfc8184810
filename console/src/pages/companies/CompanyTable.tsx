import { RecordTable } from '../../components/RecordTable';
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
    <RecordTable
      caption={t.tableCaption}
      rows={companies}
      busy={busy}
      columns={[
        { header: t.name, cell: (company) => company.name },
        { header: t.document, cell: (company) => maskDocument(company.document), nowrap: true },
        { header: t.email, cell: (company) => company.email ?? '' },
        { header: t.cityState, cell: (company) => (company.address ? `${company.address.city}/${company.address.state}` : '') },
        { header: t.taxRegime, cell: (company) => t.taxRegimeName(company.taxRegime) },
        { header: t.status, cell: (company) => <span className={`badge ${BADGE[company.status]}`}>{t.statusName(company.status)}</span> },
      ]}
      actionsHeader={c.actions}
      actions={[
        { text: c.edit, name: (company) => t.editCompany(company.name), onClick: onEdit },
        { text: t.changeStatus, name: (company) => t.changeStatusOf(company.name), onClick: onStatus },
      ]}
    />
  );
}
