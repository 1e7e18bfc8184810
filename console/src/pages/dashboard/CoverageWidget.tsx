import { useEffect, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useCoverage } from '../../api/dashboard';
import { TextField } from '../../components/Field';
import { cursorAt, Pager } from '../../components/Pager';
import { ProblemAlert } from '../../components/ProblemAlert';
import { EmptyState, SkeletonRows } from '../../components/States';
import { formatDay } from '../../format/date';
import { formatDecimal } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { BarChart } from './BarChart';
import { DEFAULT_HORIZON, DEFAULT_PERIOD, parseHorizon, runsOutWithin, type CoverageItem } from './coverage';
import { dashboardMessages } from './messages';
import { PeriodControl } from './PeriodControl';

/**
 * Stock coverage (GET /inventory/dashboard/coverage): one page of 50 products at a time, in the
 * API's order (what runs out first comes first), as a table and a bar chart, the products
 * running out within the chosen horizon marked in both (a row class and a badge in words).
 * When the day's precomputation has not completed, a notice says which day's sales it shows.
 */
export function CoverageWidget({ onDrawn }: { onDrawn?: () => void } = {}) {
  const t = useMessages(dashboardMessages);
  const { locale } = useLocale();
  const [days, setDaysState] = useState(DEFAULT_PERIOD);
  const [horizonText, setHorizonText] = useState(String(DEFAULT_HORIZON));
  const horizon = parseHorizon(horizonText) ?? DEFAULT_HORIZON;
  const [page, setPage] = useState(1);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursorAt(cursors, page);
  const coverage = useCoverage(days, cursor);
  const setDays = (next: number) => {
    setDaysState(next);
    setPage(1);
    setCursors([undefined]);
  };
  const onPage = (next: number) => {
    const nextCursor = coverage.data?.nextCursor;
    if (next > page && nextCursor) setCursors((current) => [...current.slice(0, page), nextCursor]);
    setPage(next);
  };
  const items = coverage.data?.items;
  const settled = !coverage.isPending;
  useEffect(() => {
    if (settled) onDrawn?.();
  }, [settled, onDrawn]);
  const bars = useMemo(
    () =>
      (items ?? [])
        .filter((item) => item.estimatedCoverageDays !== null)
        .map((item) => ({ label: item.sku, value: item.estimatedCoverageDays ?? 0, highlight: runsOutWithin(item, horizon) })),
    [items, horizon],
  );

  return (
    <section className="card" aria-labelledby="coverage-title">
      <h2 id="coverage-title">{t.coverage}</h2>
      <p className="muted">{t.coverageIntro}</p>
      <div className="toolbar">
        <PeriodControl days={days} onDays={setDays} />
        <TextField
          label={t.horizon}
          type="number"
          min={0}
          step={1}
          inputMode="numeric"
          value={horizonText}
          onValueChange={setHorizonText}
          hint={t.horizonHint}
        />
      </div>
      {coverage.isError ? <ProblemAlert error={coverage.error} onRetry={() => void coverage.refetch()} /> : null}
      {coverage.data?.figures.stale && coverage.data.figures.date ? (
        <p className="alert alert-warn" role="status" data-figures-date={coverage.data.figures.date}>
          {t.staleFigures(formatDay(coverage.data.figures.date))}
        </p>
      ) : null}
      {coverage.isPending ? (
        <SkeletonRows rows={6} columns={6} />
      ) : items && items.length === 0 && page === 1 ? (
        <EmptyState title={t.noProducts} hint={t.noProductsHint} action={<Link href="/inventory">{t.goToInventory}</Link>} />
      ) : items ? (
        <div aria-busy={coverage.isFetching} data-days={coverage.isPlaceholderData ? undefined : days}>
          {bars.length > 0 ? (
            <BarChart bars={bars} label={t.coverageChart(days)} unavailable={t.chartUnavailable} format={(value) => formatDecimal(value, locale)} />
          ) : null}
          <CoverageTable items={items} days={days} horizon={horizon} />
          <Pager page={page} hasNext={Boolean(coverage.data?.nextCursor)} onPage={onPage} label={t.coveragePager} />
        </div>
      ) : null}
    </section>
  );
}

function CoverageTable({ items, days, horizon }: { items: readonly CoverageItem[]; days: number; horizon: number }) {
  const t = useMessages(dashboardMessages);
  const { locale } = useLocale();
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{t.coverageCaption(days, horizon)}</caption>
        <thead>
          <tr>
            <th scope="col">{t.sku}</th>
            <th scope="col">{t.product}</th>
            <th scope="col" className="number">
              {t.available}
            </th>
            <th scope="col" className="number">
              {t.averageDailySales}
            </th>
            <th scope="col" className="number">
              {t.coverageDays}
            </th>
            <th scope="col">{t.status}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const runsOut = runsOutWithin(item, horizon);
            return (
              <tr key={item.productId} className={runsOut ? 'highlight' : undefined} data-sku={item.sku}>
                <td>
                  <Link href={`/inventory/products/${item.productId}`}>{item.sku}</Link>
                </td>
                <td>{item.name}</td>
                <td className="number">{formatDecimal(item.availableQuantity, locale)}</td>
                <td className="number">{formatDecimal(item.averageDailySales, locale)}</td>
                <td className="number">{item.estimatedCoverageDays === null ? '—' : formatDecimal(item.estimatedCoverageDays, locale)}</td>
                <td>
                  {runsOut ? (
                    <span className="badge warn">{t.runsOut(horizon)}</span>
                  ) : item.estimatedCoverageDays === null ? (
                    <span className="muted">{t.noSales}</span>
                  ) : (
                    <span className="badge ok">{t.ok}</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
