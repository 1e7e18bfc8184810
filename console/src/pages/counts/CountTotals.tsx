import type { Count } from '../../api/counts';
import { formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { countMessages } from './messages';

/** A count's totals: products counted, those with a difference, the surplus, the shortage and the net, in reais. */
export function CountTotals({ totals }: { totals: Count['totals'] }) {
  const t = useMessages(countMessages);
  const { locale } = useLocale();
  const items: [string, string][] = [
    [t.totalLines, String(totals.lines)],
    [t.linesWithDifference, String(totals.linesWithDifference)],
    [t.surplus, formatMoney(totals.surplusValue, locale)],
    [t.shortage, formatMoney(totals.shortageValue, locale)],
    [t.net, formatMoney(totals.differenceValue, locale)],
  ];
  return (
    <dl className="count-totals" aria-label={t.totals}>
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
