import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../api/problems';
import { useSaveStockLowThreshold, useTenantSettings } from '../../api/settings';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { adminMessages } from './messages';
import { readThreshold, type ThresholdInput } from './stock-low';

/**
 * "Stock running low": the tenant's threshold of days of coverage below which a stock movement
 * publishes `product.stock_low` to the webhooks, through PATCH /tenants/{id}
 * { stockLowThresholdDays } (tenant administrators). An empty field turns it off (null).
 */
export function StockLowSection({ tenantId }: { tenantId: string }) {
  const t = useMessages(adminMessages);
  const { locale } = useLocale();
  const tenant = useTenantSettings(tenantId);
  const current = tenant.data?.stockLowThresholdDays;
  const [typed, setTyped] = useState<string | undefined>();
  const [refused, setRefused] = useState<Exclude<ThresholdInput, { ok: true }>['reason'] | undefined>();
  const save = useSaveStockLowThreshold(tenantId, { onSuccess: () => setTyped(undefined) });
  const days = (value: number) => formatDecimal(value, locale);
  const text = typed ?? (typeof current === 'number' ? days(current) : '');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const read = readThreshold(text, locale);
    if (!read.ok) {
      setRefused(read.reason);
      return;
    }
    setRefused(undefined);
    save.mutate(read.days);
  };
  const ownError = refused ? { invalid: t.stockLowInvalid, places: t.stockLowPlaces, range: t.stockLowRange }[refused] : undefined;
  return (
    <section className="card" aria-labelledby="stock-low-title">
      <h2 id="stock-low-title">{t.stockLowTitle}</h2>
      <p>{t.stockLowIntro}</p>
      {current === undefined ? null : <p>{current === null ? t.stockLowCurrentOff : t.stockLowCurrent(days(current))}</p>}
      {tenant.error ? <ProblemAlert error={tenant.error} onRetry={() => void tenant.refetch()} /> : null}
      <form className="form" onSubmit={onSubmit} noValidate aria-label={t.stockLowTitle}>
        {save.isSuccess ? (
          <div className="alert alert-ok" role="status">
            <p>{save.data.stockLowThresholdDays === null ? t.stockLowSavedOff : t.stockLowSaved(days(save.data.stockLowThresholdDays))}</p>
          </div>
        ) : null}
        {save.error ? <ProblemAlert error={save.error} /> : null}
        <TextField
          label={t.stockLowDays}
          value={text}
          onValueChange={(next) => {
            setTyped(next);
            setRefused(undefined);
          }}
          inputMode="decimal"
          autoComplete="off"
          hint={t.stockLowHint}
          error={ownError ?? fieldErrors(save.error).stockLowThresholdDays}
        />
        <button type="submit" className="button primary" disabled={save.isPending}>
          {t.saveStockLow}
        </button>
      </form>
    </section>
  );
}
