import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../api/client';
import { fieldErrors } from '../../api/problems';
import { TextField } from '../../components/Field';
import { ProblemAlert } from '../../components/ProblemAlert';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { adminMessages } from './messages';
import { tenantsQuery } from './PolicySection';
import { readThreshold, thresholdOfEntries, type ThresholdInput } from './stock-low';

/** What the console knows of the threshold: a number of days, null (off), or not known. */
type Known = { known: true; days: number | null } | { known: false };

/** Pages of the tenant's own audit entries read at most, looking for the last change of the threshold. */
const TRAIL_PAGES = 5;

export const stockLowKey = (tenantId: string) => ['admin', 'stock-low', tenantId] as const;

/**
 * The current threshold. No route lets a tenant administrator read the tenant, but every change
 * of it is in the audit trail with its value after: the entries of the tenant itself
 * (`resourceId`, a strongly consistent list), newest first, until one that changed it.
 */
export const stockLowQuery = (tenantId: string) => ({
  queryKey: stockLowKey(tenantId),
  queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Known> => {
    let cursor: string | undefined;
    for (let page = 0; page < TRAIL_PAGES; page += 1) {
      const trail = await unwrap(api.GET('/audit-events', { params: { query: { resourceId: tenantId, limit: 100, ...(cursor ? { cursor } : {}) } }, signal }));
      const days = thresholdOfEntries(trail.items);
      if (days !== undefined) return { known: true, days };
      if (!trail.nextCursor) break;
      cursor = trail.nextCursor;
    }
    return { known: false };
  },
});

/**
 * "Stock running low": the tenant's threshold of days of coverage below which a stock movement
 * publishes `product.stock_low` to the webhooks, through PATCH /tenants/{id}
 * { stockLowThresholdDays } (tenant administrators). An empty field turns it off (null).
 */
export function StockLowSection({ tenantId }: { tenantId: string }) {
  const t = useMessages(adminMessages);
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const trail = useQuery(stockLowQuery(tenantId));
  const tenants = useQuery(tenantsQuery(undefined));
  const listed = tenants.data?.items.find((tenant) => tenant.id === tenantId);
  const current = trail.data?.known ? trail.data.days : listed ? listed.stockLowThresholdDays : undefined;
  const [typed, setTyped] = useState<string | undefined>();
  const [refused, setRefused] = useState<Exclude<ThresholdInput, { ok: true }>['reason'] | undefined>();
  const save = useMutation({
    mutationFn: (days: number | null) => unwrap(api.PATCH('/tenants/{id}', { params: { path: { id: tenantId } }, body: { stockLowThresholdDays: days } })),
    onSuccess: async (tenant) => {
      const saved: Known = { known: true, days: tenant.stockLowThresholdDays };
      queryClient.setQueryData(stockLowKey(tenantId), saved);
      setTyped(undefined);
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['admin', 'tenants'] }), queryClient.invalidateQueries({ queryKey: ['admin', 'audit'] })]);
    },
  });
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
      {current === undefined && trail.data && !trail.data.known ? <p className="muted">{t.stockLowUnknown}</p> : null}
      {current === undefined && trail.error ? <ProblemAlert error={trail.error} onRetry={() => void trail.refetch()} /> : null}
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
