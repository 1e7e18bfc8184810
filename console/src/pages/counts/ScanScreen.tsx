import { useIsMutating } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { countKeys, useScan, type Count, type CountLine, type ScanCode } from '../../api/counts';
import { useMessages } from '../../i18n';
import { codeText } from './count';
import { LastScan, type LastScanState } from './LastScan';
import { countMessages } from './messages';
import { ScanBox, type ScanFailure } from './ScanBox';

/** A short buzz on a phone when a code is not counted: the worker looks at the shelf, not the screen. */
const buzz = () => (typeof navigator !== 'undefined' && 'vibrate' in navigator ? navigator.vibrate(200) : undefined);

/**
 * The scanning screen of an OPEN count, for a phone with a scanner (or its camera): the code
 * field, which keeps the keyboard, and the last product scanned, big, with its running count,
 * an undo and a typed quantity. Each scan is sent as it comes (one after another: see useScan).
 */
export function ScanScreen({ count }: { count: Count }) {
  const t = useMessages(countMessages);
  const field = useRef<HTMLInputElement>(null);
  const [last, setLast] = useState<LastScanState | undefined>();
  const [failure, setFailure] = useState<ScanFailure | undefined>();
  const scan = useScan(count.id, {
    onSuccess: (line, done) => setLast({ line, code: done.code, undone: (done.quantity ?? 1) < 0 }),
    onError: (error, failed) => {
      buzz();
      setFailure({ code: codeText(failed.code), error });
    },
  });
  const sending = useIsMutating({ mutationKey: countKeys.writes(count.id) });
  const focusField = useCallback(() => field.current?.focus(), []);
  const onScan = (code: ScanCode) => {
    setFailure(undefined);
    scan.mutate({ code });
  };
  const onUndo = () => {
    if (last?.code) {
      setFailure(undefined);
      scan.mutate({ code: last.code, quantity: -1 });
    }
    focusField();
  };
  const onTyped = (line: CountLine) => setLast({ line, code: undefined, undone: false });
  return (
    <div className="scan-screen">
      <ScanBox fieldRef={field} onScan={onScan} sending={sending} failure={failure} returnFocus={focusField} />
      <LastScan countId={count.id} last={last} onUndo={onUndo} onTyped={onTyped} returnFocus={focusField} />
      <p className="muted">{t.countedSoFar(count.totals.lines)}</p>
    </div>
  );
}
