import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearch } from 'wouter';
import { api, unwrap } from '../../api/client';
import { Page } from '../../components/Page';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { ImportForm } from './ImportForm';
import { importKey, ImportReport } from './ImportReport';
import { jobOf, kindOf, startBody, type ImportKind } from './logic';
import { importMessages } from './messages';
import { UploadError, uploadFile } from './upload';
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
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | undefined>();
  const [jobId, setJobId] = useState<string | undefined>();
  const start = useMutation({
    mutationFn: async ({ kind, dryRun, file: chosen }: Start) => {
      const created = await unwrap(api.POST('/imports', { body: startBody(kind, dryRun, chosen) }));
      await uploadFile(created.upload, chosen);
      return created;
    },
    onSuccess: (created) => {
      queryClient.setQueryData(importKey(created.id), jobOf(created));
      setJobId(created.id);
    },
  });
  const begin = (next: Start) => {
    if (!start.isPending) start.mutate(next);
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
