import { useState } from 'react';

/**
 * A record list's create/edit dialog and its status line (RecordListPage): which record the
 * form is open for (none: a new one; closed: no form), and what was just done. Opening a form
 * clears the last notice; a save closes the form and says what it did.
 */
export function useRecordEditor<R>() {
  const [editing, setEditing] = useState<{ record: R | undefined } | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  return {
    notice,
    /** Sets the status line (another dialog's outcome: a status changed, a record deleted). */
    say: setNotice,
    clearNotice: () => setNotice(undefined),
    edit: (record: R | undefined) => {
      setNotice(undefined);
      setEditing({ record });
    },
    saved: (message: string) => {
      setEditing(undefined);
      setNotice(message);
    },
    /** The form dialog's `open`, its record, and its `onOpenChange` (closing drops the form). */
    dialog: {
      open: editing !== undefined,
      record: editing?.record,
      onOpenChange: (open: boolean) => {
        if (!open) setEditing(undefined);
      },
    },
  };
}
