import { useState, type FormEvent } from 'react';
import { useSetCountLine, type CountLine } from '../../api/counts';
import { fieldErrors } from '../../api/problems';
import { FormDialog } from '../../components/Dialogs';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { common } from '../../i18n/common';
import { useLocale, useMessages } from '../../i18n';
import { QUANTITY_PLACES } from '../inventory/movement';
import type { ProductUnit } from '../inventory/product';
import { takesFractions } from '../inventory/transfer';
import { parseCounted, quantityText, type CountedProblem } from './count';
import { countMessages, type CountTexts } from './messages';

function problemText(t: CountTexts, problem: CountedProblem | undefined, unit: string): string | undefined {
  switch (problem) {
    case undefined:
      return undefined;
    case 'required':
      return t.required;
    case 'invalid':
      return t.invalidNumber;
    case 'places':
      return t.tooManyPlaces(QUANTITY_PLACES);
    case 'negative':
      return t.mustNotBeNegative;
    case 'whole':
      return t.wholeOnly(unit);
  }
}

/**
 * Sets what was counted of a product (PUT /inventory/counts/{id}/lines/{productId}), typed in
 * the user's language: 0 or more, whole for a whole unit, checked before anything is sent.
 * Shown while mounted; closes itself after the save.
 */
export function QuantityDialog({
  countId,
  product,
  initial,
  onSaved,
  onClose,
  onCloseAutoFocus,
}: {
  countId: string;
  product: { productId: string; name: string; unit: string };
  /** What was counted so far (none for a product not counted yet). */
  initial?: number;
  onSaved?: (line: CountLine) => void;
  onClose: () => void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  const t = useMessages(countMessages);
  const c = useMessages(common);
  const { locale } = useLocale();
  const [text, setText] = useState(initial === undefined ? '' : quantityText(initial, locale));
  const [problem, setProblem] = useState<CountedProblem | undefined>();
  const save = useSetCountLine(countId, {
    onSuccess: (line) => {
      onSaved?.(line);
      onClose();
    },
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const parsed = parseCounted(text, product.unit, locale);
    setProblem(parsed.ok ? undefined : parsed.problem);
    if (parsed.ok) save.mutate({ productId: product.productId, counted: parsed.value });
  };
  const server = fieldErrors(save.error).counted;
  const title = t.quantityTitle(product.name);
  return (
    <FormDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title}
      description={t.quantityDescription}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-label={title}>
        {save.error && !server ? <ProblemAlert error={save.error} /> : null}
        <TextField
          label={t.countedQuantity}
          value={text}
          onValueChange={(value) => {
            setProblem(undefined);
            setText(value);
          }}
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          required
          hint={t.quantityHint(product.unit, !takesFractions(product.unit as ProductUnit))}
          error={server ?? problemText(t, problem, product.unit)}
        />
        <div className="dialog-actions">
          <button type="button" className="button secondary" onClick={onClose}>
            {c.cancel}
          </button>
          <button type="submit" className="button primary" disabled={save.isPending}>
            {t.saveQuantity}
          </button>
        </div>
      </form>
    </FormDialog>
  );
}
