import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';
import { common } from '../i18n/common';
import { useMessages } from '../i18n';

/**
 * A question before something that cannot be undone (Radix AlertDialog: focus trapped,
 * Escape cancels, the title and description name the dialog for screen readers).
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  busy = false,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  /** The button that keeps things as they are ("Cancel" unless the action is itself a cancel). */
  cancelLabel?: string;
  onConfirm: () => void;
  busy?: boolean;
  children?: ReactNode;
}) {
  const t = useMessages(common);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="overlay" />
        <AlertDialog.Content className="dialog">
          <AlertDialog.Title className="dialog-title">{title}</AlertDialog.Title>
          <AlertDialog.Description>{description}</AlertDialog.Description>
          {children}
          <div className="dialog-actions">
            <AlertDialog.Cancel className="button secondary">{cancelLabel ?? t.cancel}</AlertDialog.Cancel>
            <button
              type="button"
              className="button danger"
              disabled={busy}
              onClick={(event) => {
                // Stays open until the caller closes it (the request may fail and say why).
                event.preventDefault();
                onConfirm();
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

/** A form in a modal dialog (Radix Dialog), titled for screen readers. */
export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  onCloseAutoFocus,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  /** Where the keyboard goes when it closes (Radix's default: the button that opened it); `preventDefault()` and focus elsewhere. */
  onCloseAutoFocus?: (event: Event) => void;
  children: ReactNode;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog" aria-describedby={description ? undefined : undefined} onCloseAutoFocus={onCloseAutoFocus}>
          <Dialog.Title className="dialog-title">{title}</Dialog.Title>
          {description ? <Dialog.Description>{description}</Dialog.Description> : <Dialog.Description className="visually-hidden">{title}</Dialog.Description>}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
