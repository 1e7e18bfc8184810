import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useId, useState, type ReactNode } from 'react';
import { TextField } from './Field';
import './shown-once.css';

/** The words of a shown-once dialog, from the area that opens it (an API key, a webhook secret). */
export interface ShownOnceTexts {
  warning: string;
  field: string;
  copy: string;
  copied: string;
  copyFallback: string;
  done: string;
}

/**
 * A secret, once: a read-only field (focused and selected when the dialog opens), a copy button
 * (the Clipboard API; where it is refused, the text is selected for Ctrl+C) and the warning that
 * it will not be shown again. An alert dialog: a click outside does not close it, only the
 * button or Escape, so the text is not lost by a stray click. The caller holds the text only
 * while the dialog is open.
 */
export function ShownOnceDialog({
  title,
  value,
  texts,
  note,
  onClose,
}: {
  title: string;
  value: string;
  texts: ShownOnceTexts;
  note?: ReactNode;
  onClose: () => void;
}) {
  const fieldId = useId();
  const [copied, setCopied] = useState<'' | 'copied' | 'selected'>('');
  const selectValue = () => {
    const input = document.getElementById(fieldId);
    if (!(input instanceof HTMLInputElement)) return;
    input.focus();
    input.select();
  };
  const copy = async () => {
    try {
      // Absent outside a secure context (the type says it is always there).
      const clipboard = navigator.clipboard as Clipboard | undefined;
      if (!clipboard) throw new Error('no clipboard');
      await clipboard.writeText(value);
      setCopied('copied');
    } catch {
      selectValue();
      setCopied('selected');
    }
  };
  return (
    <AlertDialog.Root open onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay" />
        <AlertDialog.Content
          className="dialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            selectValue();
          }}
        >
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="alert alert-warn">
              <p>{texts.warning}</p>
              {note}
            </div>
          </AlertDialog.Description>
          <TextField
            id={fieldId}
            className="shown-once-value"
            label={texts.field}
            value={value}
            onValueChange={() => undefined}
            readOnly
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
          />
          <p role="status" className="muted">
            {copied === 'copied' ? texts.copied : copied === 'selected' ? texts.copyFallback : ''}
          </p>
          <div className="dialog-actions">
            <button type="button" className="button secondary" onClick={() => void copy()}>
              {texts.copy}
            </button>
            <AlertDialog.Action className="button primary">{texts.done}</AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
