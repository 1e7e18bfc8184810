import { useId, useState, type FormEvent } from 'react';
import { useExportJob, useStartExport } from '../../api/exports';
import { fieldErrors } from '../../api/problems';
import { SelectField, TextField } from '../../components/Field';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { formatDateTime } from '../../format/date';
import { useLocale, useMessages } from '../../i18n';
import { defaultPeriod, EXPORT_KINDS, startBody, takesPeriod, type ExportJob, type ExportKind } from './logic';
import { exportMessages } from './messages';

/**
 * /exports: what to export (and, for the stock movements and the audit trail, the period),
 * POST /exports, then the job followed every second (GET /exports/{id}) until its file is ready
 * and a link to it is shown. The button is disabled while a start runs, so a double click does
 * not start two. A member asking for the audit trail is answered the API's own 403.
 */
export default function ExportsPage() {
  const t = useMessages(exportMessages);
  const [jobId, setJobId] = useState<string | undefined>();
  const start = useStartExport(setJobId);
  return (
    <Page title={t.title}>
      <p className="muted">{t.intro}</p>
      <ExportForm
        busy={start.isPending}
        error={start.error}
        onStart={(body) => {
          if (!start.isPending) start.mutate(body);
        }}
      />
      {start.error && Object.keys(fieldErrors(start.error)).length === 0 ? <ProblemAlert error={start.error} /> : null}
      {jobId ? <ExportState key={jobId} id={jobId} /> : null}
    </Page>
  );
}

function ExportForm({ busy, error, onStart }: { busy: boolean; error: unknown; onStart: (body: ReturnType<typeof startBody>) => void }) {
  const t = useMessages(exportMessages);
  const [kind, setKind] = useState<ExportKind>('suppliers');
  const [period, setPeriod] = useState(() => defaultPeriod(new Date().toISOString().slice(0, 10)));
  const titleId = useId();
  const fields = fieldErrors(error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onStart(startBody(kind, period.from, period.to));
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId}>{t.formTitle}</h2>
      <div className="form-row">
        <SelectField
          label={t.kind}
          value={kind}
          onValueChange={(value) => setKind(EXPORT_KINDS.find((known) => known === value) ?? kind)}
          options={EXPORT_KINDS.map((value) => ({ value, label: t.kindNames(value) }))}
          hint={t.kindHint(kind)}
          error={fields.kind}
        />
      </div>
      {takesPeriod(kind) ? (
        <div className="form-row">
          <TextField
            label={t.from}
            type="date"
            required
            value={period.from}
            onValueChange={(from) => setPeriod({ ...period, from })}
            error={fields.from}
            hint={t.periodHint}
          />
          <TextField label={t.to} type="date" required value={period.to} onValueChange={(to) => setPeriod({ ...period, to })} error={fields.to} />
        </div>
      ) : null}
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={busy}>
          {t.submit}
        </button>
        <span role="status" className="muted">
          {busy ? t.submitting : ''}
        </span>
      </div>
    </form>
  );
}

/** One job, followed every second while it is queued or running, then left alone; its file's link once it is done. */
function ExportState({ id }: { id: string }) {
  const t = useMessages(exportMessages);
  const { locale } = useLocale();
  const titleId = useId();
  const job = useExportJob(id);
  const data: ExportJob | undefined = job.data;
  if (!data) return job.isError ? <ProblemAlert error={job.error} onRetry={() => void job.refetch()} /> : <SkeletonRows rows={2} columns={2} />;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t.jobTitle(t.kindNames(data.kind))}</h2>
      <p role="status">
        {t.status}: <strong>{t.statusNames(data.status)}</strong>
        {data.status === 'running' || data.status === 'done' ? ` · ${t.rows(new Intl.NumberFormat(locale).format(data.rows))}` : ''}
      </p>
      {job.isError ? <ProblemAlert error={job.error} onRetry={() => void job.refetch()} /> : null}
      {data.failure ? (
        <div className="alert alert-error" role="alert">
          <p>{t.failed}</p>
          <p>{data.failure}</p>
        </div>
      ) : null}
      {data.download ? (
        <p>
          <a className="button primary" href={data.download.url} download={data.download.fileName}>
            {t.download(data.download.fileName)}
          </a>{' '}
          <span className="muted small">{t.linkExpires(formatDateTime(data.download.expiresAt, locale))}</span>
        </p>
      ) : null}
    </section>
  );
}
