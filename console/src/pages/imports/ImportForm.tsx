import { useId, useState, type FormEvent } from 'react';
import { fieldErrors } from '../../api/problems';
import { CheckboxField, SelectField } from '../../components/Field';
import { useMessages } from '../../i18n';
import { fileProblem, IMPORT_KINDS, type FileProblem, type ImportKind } from './logic';
import { importMessages } from './messages';

/**
 * The file to import: its kind, the CSV itself and whether to only check it (on by default, so
 * a first try writes nothing). The file is checked here for presence and size; the API checks
 * the rest and answers each field's problem, shown beside it.
 */
export function ImportForm({
  initialKind,
  file,
  busy,
  error,
  onFileChange,
  onStart,
}: {
  initialKind: ImportKind;
  file: File | undefined;
  busy: boolean;
  error: unknown;
  onFileChange: (file: File | undefined) => void;
  onStart: (kind: ImportKind, dryRun: boolean, file: File) => void;
}) {
  const t = useMessages(importMessages);
  const [kind, setKind] = useState<ImportKind>(initialKind);
  const [dryRun, setDryRun] = useState(true);
  const [problem, setProblem] = useState<FileProblem | undefined>();
  const fileId = useId();
  const titleId = useId();
  const fields = fieldErrors(error);
  const problemText: Record<FileProblem, string> = { missing: t.fileMissing, empty: t.fileEmpty, tooLarge: t.fileTooLarge };
  const fileError = problem ? problemText[problem] : (fields.size ?? fields.fileName);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = fileProblem(file);
    setProblem(found);
    if (!found && file) onStart(kind, dryRun, file);
  };

  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId}>{t.formTitle}</h2>
      <div className="form-row">
        <SelectField
          label={t.kind}
          value={kind}
          onValueChange={(value) => setKind(IMPORT_KINDS.find((known) => known === value) ?? kind)}
          options={IMPORT_KINDS.map((value) => ({ value, label: t.kindNames(value) }))}
          error={fields.kind}
        />
        <div className={`field${fileError ? ' field-invalid' : ''}`}>
          <label htmlFor={fileId}>{t.file}</label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              setProblem(undefined);
              onFileChange(event.target.files?.[0]);
            }}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={`${fileId}-hint${fileError ? ` ${fileId}-error` : ''}`}
          />
          <p className="hint" id={`${fileId}-hint`}>
            {t.fileHint(kind)}
          </p>
          {fileError ? (
            <p className="field-error" id={`${fileId}-error`}>
              {fileError}
            </p>
          ) : null}
        </div>
      </div>
      <CheckboxField label={t.dryRun} checked={dryRun} onCheckedChange={setDryRun} />
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
