import { useState } from 'react';
import { useCancelCount, type Count } from '../../api/counts';
import { ConfirmDialog } from '../../components/Dialogs';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { countMessages } from './messages';

/** Cancels an open count after a question: nothing is adjusted, and the warehouse can be counted again. */
export function CancelCount({ count }: { count: Count }) {
  const t = useMessages(countMessages);
  const [asking, setAsking] = useState(false);
  const cancel = useCancelCount(count.id, { onSuccess: () => setAsking(false) });
  return (
    <>
      <button
        type="button"
        className="button secondary"
        onClick={() => {
          cancel.reset();
          setAsking(true);
        }}
      >
        {t.cancelCount}
      </button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t.cancelTitle}
        description={t.cancelDescription}
        confirmLabel={t.cancelCount}
        cancelLabel={t.keepCounting}
        busy={cancel.isPending}
        onConfirm={() => cancel.mutate()}
      >
        {cancel.error ? <ProblemAlert error={cancel.error} /> : null}
      </ConfirmDialog>
    </>
  );
}
