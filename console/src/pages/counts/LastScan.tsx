import { useState } from 'react';
import type { CountLine, ScanCode } from '../../api/counts';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { countMessages } from './messages';
import { QuantityDialog } from './QuantityDialog';

/** The last line written from the scanning screen, and the code scanned (none when the quantity was typed: nothing to undo). */
export interface LastScanState {
  line: CountLine;
  code: ScanCode | undefined;
  /** The last scan took a unit back. */
  undone: boolean;
}

/**
 * The product scanned last, big enough to read at arm's length: its name, SKU and running
 * count, announced politely to a screen reader. "Undo" takes one unit back (the same code,
 * quantity -1); "Type the quantity" sets what was counted (a shelf counted by hand). The
 * keyboard goes back to the code field after either.
 */
export function LastScan({
  countId,
  last,
  onUndo,
  onTyped,
  returnFocus,
}: {
  countId: string;
  last: LastScanState | undefined;
  onUndo: () => void;
  onTyped: (line: CountLine) => void;
  returnFocus: () => void;
}) {
  const t = useMessages(countMessages);
  const { locale } = useLocale();
  const [typing, setTyping] = useState(false);
  const line = last?.line;
  return (
    <section className="card count-card last-scan" aria-labelledby="last-scan-title">
      <h2 id="last-scan-title">{t.lastScan}</h2>
      <div className="last-scan-live" aria-live="polite" aria-atomic="true">
        {line ? (
          <>
            <p className="last-scan-name">{line.name}</p>
            <p className="last-scan-sku">{t.skuOf(line.sku)}</p>
            <p className="last-scan-count">
              {t.counted}: <strong>{formatDecimal(line.counted, locale)}</strong> {line.unit}
            </p>
            {last?.undone ? <p className="small">{t.undone(line.name)}</p> : null}
          </>
        ) : (
          <p className="muted">{t.nothingYet}</p>
        )}
      </div>
      {line ? (
        <div className="last-scan-actions">
          {last?.code ? (
            <button type="button" className="button secondary" onClick={onUndo} disabled={line.counted <= 0}>
              {t.undo}
            </button>
          ) : null}
          <button type="button" className="button secondary" onClick={() => setTyping(true)}>
            {t.typeQuantity}
          </button>
        </div>
      ) : null}
      {typing && line ? (
        <QuantityDialog
          countId={countId}
          product={line}
          initial={line.counted}
          onSaved={onTyped}
          onClose={() => setTyping(false)}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocus();
          }}
        />
      ) : null}
    </section>
  );
}
