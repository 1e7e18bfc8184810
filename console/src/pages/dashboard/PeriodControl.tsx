import { useId, useState, type FormEvent } from 'react';
import { useMessages } from '../../i18n';
import { parseDays, PRESET_PERIODS } from './coverage';
import { dashboardMessages } from './messages';

/**
 * The reference period: 7, 30 or 90 days (applied at once), or another number of days applied
 * with a button, so that typing does not spend the API's limit on windows off the daily index.
 */
export function PeriodControl({ days, onDays }: { days: number; onDays: (days: number) => void }) {
  const t = useMessages(dashboardMessages);
  const id = useId();
  const preset = (PRESET_PERIODS as readonly number[]).includes(days);
  const [custom, setCustom] = useState(preset ? '' : String(days));
  const [customChosen, setCustomChosen] = useState(!preset);
  const [invalid, setInvalid] = useState(false);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseDays(custom);
    setInvalid(parsed === undefined);
    if (parsed !== undefined) onDays(parsed);
  };
  return (
    <form className="form period" onSubmit={apply} noValidate>
      <fieldset>
        <legend>{t.period}</legend>
        {PRESET_PERIODS.map((value) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name={`${id}-period`}
              checked={!customChosen && days === value}
              onChange={() => {
                setCustomChosen(false);
                setInvalid(false);
                onDays(value);
              }}
            />
            {t.periodDays(value)}
          </label>
        ))}
        <label className="choice">
          <input type="radio" name={`${id}-period`} checked={customChosen} onChange={() => setCustomChosen(true)} />
          {t.customPeriod}
        </label>
        <span className={`field${invalid ? ' field-invalid' : ''}`}>
          <label htmlFor={`${id}-custom`}>{t.customDays}</label>
          <input
            id={`${id}-custom`}
            type="number"
            min={1}
            max={365}
            step={1}
            inputMode="numeric"
            value={custom}
            onFocus={() => setCustomChosen(true)}
            onChange={(event) => {
              setCustomChosen(true);
              setCustom(event.target.value);
            }}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-custom-error` : undefined}
          />
          {invalid ? (
            <span className="field-error" id={`${id}-custom-error`}>
              {t.invalidDays}
            </span>
          ) : null}
        </span>
        <button type="submit" className="button secondary">
          {t.apply}
        </button>
      </fieldset>
    </form>
  );
}
