import { useId } from 'react';
import { Link } from 'wouter';
import { useImportJob } from '../../api/imports';
import { ProblemAlert } from '../../components/ProblemAlert';
import { SkeletonRows } from '../../components/States';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { canImportForReal, etaOf, isUnderway, progressOf, type ImportJob } from './logic';
import { importMessages } from './messages';

/**
 * One job, followed every second while it waits for its file or runs (GET /imports/{id}), then
 * left alone: its status, progress, counts, time left, ignored columns, failure and refused
 * rows. A finished check that refused nothing offers the real import of the same file.
 */
export function ImportReport({
  id,
  file,
  busy,
  onImportForReal,
}: {
  id: string;
  file: File | undefined;
  busy: boolean;
  onImportForReal: (job: ImportJob) => void;
}) {
  const t = useMessages(importMessages);
  const titleId = useId();
  const job = useImportJob(id);
  const data = job.data;

  if (!data) return job.isError ? <ProblemAlert error={job.error} onRetry={() => void job.refetch()} /> : <SkeletonRows rows={3} columns={2} />;
  return (
    <section className="card import-report" aria-labelledby={titleId}>
      <h2 id={titleId}>{t.reportTitle(data.fileName)}</h2>
      <p className="muted">{data.dryRun ? t.reportDryRun : t.reportReal}</p>
      <p role="status">
        {t.status}: <strong>{t.statusNames(data.status)}</strong>
      </p>
      {job.isError ? <ProblemAlert error={job.error} onRetry={() => void job.refetch()} /> : null}
      <Progress job={data} />
      <Summary job={data} />
      {data.ignoredColumns.length > 0 ? <p>{t.ignoredColumns(data.ignoredColumns.join(', '))}</p> : null}
      {data.failure ? (
        <div className="alert alert-error" role="alert">
          <p>{t.failed}</p>
          <p>{data.failure}</p>
        </div>
      ) : null}
      {data.errors.length > 0 ? <RefusedRows job={data} /> : null}
      <NextStep job={data} file={file} busy={busy} onImportForReal={onImportForReal} />
    </section>
  );
}

/** The rows read so far as an accessible progress bar; while the file is not yet read, an indeterminate one. */
function Progress({ job }: { job: ImportJob }) {
  const t = useMessages(importMessages);
  const { locale } = useLocale();
  const id = useId();
  const progress = progressOf(job);
  if (!progress && !isUnderway(job.status)) return null;
  const text = progress
    ? t.progressText(formatDecimal(progress.done, locale), formatDecimal(progress.total, locale), formatDecimal(progress.percent, locale))
    : t.progressUnknown;
  return (
    <div className="import-progress">
      <label htmlFor={id}>{t.progress}</label>
      {progress ? <progress id={id} value={progress.percent} max={100} aria-valuetext={text} /> : <progress id={id} aria-valuetext={text} />}
      <span className="muted">{text}</span>
    </div>
  );
}

/** The counts, one row each, named by their row header. */
function Summary({ job }: { job: ImportJob }) {
  const t = useMessages(importMessages);
  const { locale } = useLocale();
  const count = (value: number | null) => (value === null ? '—' : formatDecimal(value, locale));
  const eta = isUnderway(job.status) ? etaOf(job.etaSeconds) : undefined;
  const rows: [string, string][] = [
    [t.rows, count(job.totalRows)],
    [job.dryRun ? t.wouldCreate : t.created, count(job.created)],
    [t.existing, count(job.existing)],
    [t.refused, count(job.refused)],
  ];
  if (eta)
    rows.push([
      t.eta,
      eta.unit === 'seconds' ? t.etaSeconds(eta.seconds) : eta.unit === 'hours' ? t.etaHours(eta.hours, eta.minutes) : t.etaMinutes(eta.minutes),
    ]);
  return (
    <div className="table-wrap import-summary-wrap">
      <table className="import-summary">
        <caption className="visually-hidden">{t.summary}</caption>
        <tbody>
          {rows.map(([label, value]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td className="number">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The refused rows as the API names them: the file's line, its column, the API's message. */
function RefusedRows({ job }: { job: ImportJob }) {
  const t = useMessages(importMessages);
  const { locale } = useLocale();
  return (
    <>
      <div className="table-wrap">
        <table>
          <caption>{t.errorsCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{t.line}</th>
              <th scope="col">{t.column}</th>
              <th scope="col">{t.problem}</th>
            </tr>
          </thead>
          <tbody>
            {job.errors.map((error, index) => (
              <tr key={`${error.line}-${error.field}-${index}`}>
                <td className="number">{formatDecimal(error.line, locale)}</td>
                <td>{error.field || t.wholeRow}</td>
                <td>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {job.errorsTruncated ? <p className="muted">{t.errorsTruncated(formatDecimal(job.errors.length, locale))}</p> : null}
    </>
  );
}

/** What to do once the job is done: import for real after a clean check, fix the file after refusals, or see what was written. */
function NextStep({ job, file, busy, onImportForReal }: { job: ImportJob; file: File | undefined; busy: boolean; onImportForReal: (job: ImportJob) => void }) {
  const t = useMessages(importMessages);
  if (job.status !== 'succeeded') return null;
  if (!job.dryRun)
    return (
      <p>
        <Link href={job.kind === 'suppliers' ? '/suppliers' : job.kind === 'stock' ? '/inventory/counts' : '/inventory'}>
          {job.kind === 'suppliers' ? t.seeSuppliers : job.kind === 'stock' ? t.seeCounts : t.seeProducts}
        </Link>
      </p>
    );
  if (canImportForReal(job, file))
    return (
      <div className="toolbar">
        <button type="button" className="button primary" disabled={busy} onClick={() => onImportForReal(job)}>
          {t.realImport}
        </button>
      </div>
    );
  return <p className="muted">{job.refused > 0 ? t.fixAndRetry : t.chooseAgain}</p>;
}
