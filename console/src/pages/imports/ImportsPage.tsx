import { useState } from 'react';
import { useSearch } from 'wouter';
import { useStartImport } from '../../api/imports';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { ImportForm } from './ImportForm';
import { ImportReport } from './ImportReport';
import { kindOf, startBody, type ImportKind } from './logic';
import { importMessages } from './messages';
import { UploadError } from './upload';
import './imports.css';

interface Start {
  kind: ImportKind;
  dryRun: boolean;
  file: File;
}

/**
 * /imports — suppliers or products from a CSV file (`?kind=products` from the inventory page):
 * POST /imports, the file PUT where it says, then the job's report as it runs. POST /imports
 * takes no Idempotency-Key: the button is disabled while a start runs, so a double click does
 * not start two. A member is answered the API's own 403.
 */
export default function ImportsPage() {
  const t = useMessages(importMessages);
  const search = useSearch();
  const [file, setFile] = useState<File | undefined>();
  const [jobId, setJobId] = useState<string | undefined>();
  const start = useStartImport(setJobId);
  const begin = ({ kind, dryRun, file: chosen }: Start) => {
    if (!start.isPending) start.mutate({ body: startBody(kind, dryRun, chosen), file: chosen });
  };
  return (
    <Page title={t.title}>
      <p className="muted">{t.intro}</p>
      <ImportForm
        initialKind={kindOf(search)}
        file={file}
        busy={start.isPending}
        error={start.error}
        onFileChange={setFile}
        onStart={(kind, dryRun, chosen) => begin({ kind, dryRun, file: chosen })}
      />
      {start.error instanceof UploadError ? (
        <div className="alert alert-error" role="alert">
          <p>{start.error.status === undefined ? t.uploadUnreachable : t.uploadFailed(start.error.status, start.error.detail)}</p>
        </div>
      ) : start.error ? (
        <ProblemAlert error={start.error} />
      ) : null}
      {jobId ? (
        <ImportReport
          key={jobId}
          id={jobId}
          file={file}
          busy={start.isPending}
          onImportForReal={(job) => {
            if (file) begin({ kind: job.kind, dryRun: false, file });
          }}
        />
      ) : null}
    </Page>
  );
}
