import { useId, useState, type FormEvent } from 'react';
import { useCloseCount, type Count, type UncountedRule } from '../../api/counts';
import { ConfirmDialog } from '../../components/Dialogs';
import { Fieldset } from '../../components/Fieldset';
import { ProblemAlert } from '../../components/ProblemAlert';
import { useMessages } from '../../i18n';
import { CancelCount } from './CancelCount';
import { countMessages } from './messages';

const RULES: readonly UncountedRule[] = ['ignore', 'zero'];

/**
 * The close: what to do with the products nobody counted (leave their stock, the default, or
 * count them as 0), then a question before the differences are applied to the stock, which
 * cannot be undone. The cancel of the count sits beside it.
 */
export function CloseCount({ count }: { count: Count }) {
  const t = useMessages(countMessages);
  const id = useId();
  const [rule, setRule] = useState<UncountedRule>('ignore');
  const [confirming, setConfirming] = useState(false);
  const close = useCloseCount(count.id, { onSuccess: () => setConfirming(false) });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    close.reset();
    setConfirming(true);
  };
  return (
    <section className="card count-card" aria-labelledby="close-count-title">
      <h2 id="close-count-title">{t.closeTitle}</h2>
      <p>{t.closeIntro}</p>
      <form className="form" onSubmit={onSubmit} noValidate>
        <Fieldset legend={t.uncountedRule}>
          {RULES.map((value) => (
            <div className="field field-checkbox" key={value}>
              <input type="radio" id={`${id}-${value}`} name={`${id}-rule`} value={value} checked={rule === value} onChange={() => setRule(value)} />
              <label htmlFor={`${id}-${value}`}>{value === 'ignore' ? t.ruleIgnore : t.ruleZero}</label>
            </div>
          ))}
        </Fieldset>
        <div className="count-close-actions">
          <button type="submit" className="button primary">
            {t.closeSubmit}
          </button>
          <CancelCount count={count} />
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t.closeConfirmTitle}
        description={t.closeConfirmDescription(rule === 'zero')}
        confirmLabel={t.closeConfirm}
        busy={close.isPending}
        onConfirm={() => close.mutate(rule)}
      >
        {close.error ? <ProblemAlert error={close.error} /> : null}
      </ConfirmDialog>
    </section>
  );
}
