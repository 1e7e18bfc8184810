import { useEffect, useId, useState, type FormEvent, type RefObject } from 'react';
import type { ScanCode } from '../../api/counts';
import { fieldErrors } from '../../api/problems';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { CameraScan, hasBarcodeDetector } from './CameraScan';
import { scanCodeOf } from './count';
import { countMessages } from './messages';

/** A scan the API refused: the code, and why. */
export interface ScanFailure {
  code: string;
  error: unknown;
}

/**
 * The field a USB or Bluetooth scanner types into: the code, then Enter. Enter sends it (a GTIN
 * when it is 8, 12, 13 or 14 digits, else a SKU), empties the field and leaves the keyboard in
 * it, so the next scan goes straight in; a key typed while nothing has the focus comes back to
 * it. A refused code is said in an alert, the field still ready. With the browser's
 * BarcodeDetector (Chrome on Android), "Camera" reads the barcode with the phone's camera.
 */
export function ScanBox({
  fieldRef,
  onScan,
  sending,
  failure,
  returnFocus,
}: {
  fieldRef: RefObject<HTMLInputElement | null>;
  onScan: (code: ScanCode) => void;
  sending: number;
  failure: ScanFailure | undefined;
  returnFocus: () => void;
}) {
  const t = useMessages(countMessages);
  const id = useId();
  const [text, setText] = useState('');
  const [camera, setCamera] = useState(false);
  const [withCamera] = useState(hasBarcodeDetector);
  useKeysComeBack(fieldRef);
  const send = (typed: string) => {
    const code = scanCodeOf(typed);
    if (code) onScan(code);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send(text);
    setText('');
    returnFocus();
  };
  return (
    <>
      <form className="card count-card scan-form" onSubmit={onSubmit} noValidate aria-label={t.scanForm}>
        <div className="field scan-field">
          <div className="scan-label-row">
            <label htmlFor={id}>{t.scanLabel}</label>
            <span className="muted small">{sending > 0 ? t.sending(sending) : ''}</span>
          </div>
          <div className="scan-row">
            <input
              ref={fieldRef}
              id={id}
              value={text}
              onChange={(event) => setText(event.target.value)}
              // The screen exists to take scans: the scanner types here at once.
              autoFocus
              autoComplete="off"
              autoCorrect="off"
              autoCapitalize="off"
              spellCheck={false}
              enterKeyHint="enter"
              maxLength={100}
              aria-describedby={`${id}-hint`}
            />
            <button type="submit" className="button primary">
              {t.scanSubmit}
            </button>
          </div>
          <p className="hint" id={`${id}-hint`}>
            {t.scanHint}
          </p>
        </div>
        {withCamera ? (
          <div className="scan-actions">
            <button type="button" className="button secondary" onClick={() => setCamera(true)}>
              {t.camera}
            </button>
          </div>
        ) : null}
        {failure ? <FailureAlert failure={failure} /> : null}
      </form>
      {camera ? (
        <CameraScan
          onRead={(code) => {
            setCamera(false);
            send(code);
          }}
          onClose={() => setCamera(false)}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus();
          }}
        />
      ) : null}
    </>
  );
}

/** The code not counted and the API's reason (a 404 names the code; a 400 says what is wrong with it). */
function FailureAlert({ failure }: { failure: ScanFailure }) {
  const t = useMessages(countMessages);
  const fields = Object.values(fieldErrors(failure.error));
  return (
    <div className="scan-failure">
      <p className="scan-failure-code">{t.notCounted(failure.code)}</p>
      <ProblemAlert error={failure.error} />
      {fields.length > 0 ? <p className="field-error">{fields.join(' ')}</p> : null}
    </div>
  );
}

/** A key typed while nothing has the focus (a tap on the page's background) goes to the field: the scanner's next code is not lost. */
function useKeysComeBack(fieldRef: RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
      const active = document.activeElement;
      if (active === null || active === document.body || active.id === 'main') fieldRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [fieldRef]);
}
