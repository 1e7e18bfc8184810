import { useState, type FormEvent } from 'react';
import { useChangeCompanyStatus } from '../../api/companies';
import { FormDialog } from '../../components/Dialogs';
import { SelectField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { common } from '../../i18n/common';
import { useMessages } from '../../i18n';
import { allowedTransitions, type Company, type CompanyStatus } from './form';
import { companyMessages } from './messages';

/**
 * A company's next status, among only those the API allows from the current one. A member
 * (not an administrator) is refused with a 403, whose reason the alert shows.
 */
export function StatusDialog({
  company,
  onOpenChange,
  onChanged,
}: {
  company: Company | undefined;
  onOpenChange: (open: boolean) => void;
  onChanged: (company: Company) => void;
}) {
  const t = useMessages(companyMessages);
  return (
    <FormDialog
      open={company !== undefined}
      onOpenChange={onOpenChange}
      title={company ? t.statusTitle(company.name) : t.changeStatus}
      description={company ? t.statusDescription(t.statusName(company.status)) : undefined}
    >
      {company ? <StatusForm company={company} onCancel={() => onOpenChange(false)} onChanged={onChanged} /> : null}
    </FormDialog>
  );
}

function StatusForm({ company, onCancel, onChanged }: { company: Company; onCancel: () => void; onChanged: (company: Company) => void }) {
  const t = useMessages(companyMessages);
  const c = useMessages(common);
  const targets = allowedTransitions(company.status);
  const [status, setStatus] = useState<CompanyStatus | undefined>(targets[0]);
  const change = useChangeCompanyStatus(company.id, { onSuccess: onChanged });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (status) change.mutate(status);
  };
  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      {change.error ? <ProblemAlert error={change.error} /> : null}
      {targets.length === 0 ? (
        <p className="alert alert-warn">{t.blockedNote}</p>
      ) : (
        <SelectField
          label={t.newStatus}
          value={status ?? ''}
          onValueChange={(value) => setStatus(value as CompanyStatus)}
          options={targets.map((target) => ({ value: target, label: t.statusName(target) }))}
        />
      )}
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          {targets.length === 0 ? c.close : c.cancel}
        </button>
        {targets.length === 0 ? null : (
          <button type="submit" className="button primary" disabled={change.isPending}>
            {t.applyStatus}
          </button>
        )}
      </div>
    </form>
  );
}
