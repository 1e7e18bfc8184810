import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from './Dialogs';
import { ProblemAlert } from './ProblemAlert';

/**
 * A ConfirmDialog whose confirmation makes one call: the button is disabled while it runs, a
 * failure is shown in the dialog (which stays open), a success is handed on. The answer is kept
 * in no cache (gcTime 0): it may hold a secret.
 */
export function ConfirmCall<T>({
  title,
  description,
  confirmLabel,
  call,
  onDone,
  onClose,
}: {
  title: string;
  description: string;
  confirmLabel: string;
  call: () => Promise<T>;
  onDone: (answer: T) => void;
  onClose: () => void;
}) {
  const mutation = useMutation({ mutationFn: call, gcTime: 0, onSuccess: (answer) => onDone(answer) });
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      onConfirm={() => mutation.mutate()}
      busy={mutation.isPending}
    >
      {mutation.error ? <ProblemAlert error={mutation.error} /> : null}
    </ConfirmDialog>
  );
}
