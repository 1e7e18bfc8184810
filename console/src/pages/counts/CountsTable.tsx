import { Link } from 'wouter';
import type { Count } from '../../api/counts';
import { TableWrap } from '../../components/TableWrap';
import { formatDateTime } from '../../format/date';
import { formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { countMessages } from './messages';
import { StatusBadge } from './StatusBadge';

/** A page of counts: the warehouse (a link to the count), when it started, its status, how many products were counted, the net difference and the note. */
export function CountsTable({
  caption,
  counts,
  names,
  busy,
}: {
  caption: string;
  counts: readonly Count[];
  names: ReadonlyMap<string, string>;
  busy: boolean;
}) {
  const t = useMessages(countMessages);
  const { locale } = useLocale();
  return (
    <TableWrap label={caption} busy={busy}>
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.warehouse}</th>
            <th scope="col">{t.startedAt}</th>
            <th scope="col">{t.status}</th>
            <th scope="col" className="number">
              {t.productsCounted}
            </th>
            <th scope="col" className="number">
              {t.netValue}
            </th>
            <th scope="col" className="count-note">
              {t.note}
            </th>
          </tr>
        </thead>
        <tbody>
          {counts.map((count) => (
            <tr key={count.id}>
              <td>
                <Link href={`/inventory/counts/${count.id}`}>{names.get(count.warehouseId) ?? t.unknownWarehouse}</Link>
              </td>
              <td className="count-nowrap">{formatDateTime(count.createdAt, locale)}</td>
              <td>
                <StatusBadge status={count.status} />
              </td>
              <td className="number">{count.totals.lines}</td>
              <td className="number">{formatMoney(count.totals.differenceValue, locale)}</td>
              <td className="count-note">{count.note ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
