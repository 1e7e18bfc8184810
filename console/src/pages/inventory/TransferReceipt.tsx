import type { Transfer } from '../../api/transfers';
import { formatDecimal, formatMoney } from '../../format/decimal';
import { useLocale, useMessages } from '../../i18n';
import { inventoryMessages } from './messages';

/** What a transfer moved: the quantity, its value and how it was valued, and each warehouse's balance after it. */
export function TransferReceipt({ transfer, unit, names }: { transfer: Transfer; unit: string; names: ReadonlyMap<string, string> }) {
  const t = useMessages(inventoryMessages);
  const { locale } = useLocale();
  const from = names.get(transfer.fromWarehouseId) ?? transfer.fromWarehouseId;
  const to = names.get(transfer.toWarehouseId) ?? transfer.toWarehouseId;
  const quantity = `${formatDecimal(transfer.quantity, locale)}${unit ? ` ${unit}` : ''}`;
  const balance = (side: Transfer['from']) => t.balanceWithCost(formatDecimal(side.balance.quantity, locale), formatMoney(side.balance.averageCost, locale));
  return (
    <>
      <p>{t.transferDone(quantity, from, to)}</p>
      <dl className="transfer-receipt">
        <div>
          <dt>{t.transferValue}</dt>
          <dd>
            {formatMoney(transfer.value, locale)}, {t.costMethodNames(transfer.costMethod)}
          </dd>
        </div>
        <div>
          <dt>{t.balanceIn(from)}</dt>
          <dd>{balance(transfer.from)}</dd>
        </div>
        <div>
          <dt>{t.balanceIn(to)}</dt>
          <dd>{balance(transfer.to)}</dd>
        </div>
      </dl>
    </>
  );
}
