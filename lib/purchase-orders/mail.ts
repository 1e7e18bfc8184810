import { CSV_BOM, csvRow, formatDecimal } from '../csv/write';
import { formatScaled, QUANTITY_PLACES, UNIT_COST_PLACES, VALUE_PLACES } from '../domain/decimal';
import type { MailMessage } from '../mail/mailer';
import { itemValue, orderCode, orderTotal, type PurchaseOrder } from './model';

/**
 * The e-mail a supplier receives for an order, in Portuguese: the items with quantities, unit
 * costs and totals as a table, and the same as a CSV attachment (`;`, decimal comma, UTF-8 with
 * BOM: what Excel in Portuguese opens as numbers). Figures are the order's exact decimals.
 */

export interface OrderMailContext {
  company: { name: string; document: string };
  supplier: { name: string };
  warehouseName: string;
  /** Each item's product and the supplier's own code for it, if any. */
  products: ReadonlyMap<string, { sku: string; name: string; unit: string; supplierCode: string | null }>;
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** A decimal as Brazil writes it: comma for the point, dots for thousands, at least `min` places. */
function brazilian(value: bigint, places: number, min: number): string {
  const [whole = '0', fraction = ''] = formatScaled(value, places).split('.');
  const negative = whole.startsWith('-');
  const digits = negative ? whole.slice(1) : whole;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const decimals = fraction.replace(/0+$/, '').padEnd(min, '0');
  return `${negative ? '-' : ''}${grouped}${decimals ? `,${decimals}` : ''}`;
}

const money = (value: bigint, places: number) => `R$ ${brazilian(value, places, 2)}`;
/** A value of 10^-7 rounded half-even to the cent, as the API shows it. */
const cents = (value: bigint) => money(roundToCents(value), 2);
const roundToCents = (value: bigint): bigint => {
  const unit = 10n ** BigInt(VALUE_PLACES - 2);
  const quotient = value / unit;
  const remainder = value % unit;
  const twice = remainder * 2n;
  if (twice > unit || (twice === unit && quotient % 2n !== 0n)) return quotient + 1n;
  return quotient;
};

export function purchaseOrderMail(order: PurchaseOrder, to: string, context: OrderMailContext): MailMessage {
  const code = orderCode(order.number);
  const rows = order.items.map((item) => {
    const product = context.products.get(item.productId);
    return {
      code: product?.supplierCode ?? '',
      sku: product?.sku ?? '',
      name: product?.name ?? item.productId,
      unit: product?.unit ?? '',
      quantity: brazilian(item.quantity, QUANTITY_PLACES, 0),
      unitCost: money(item.unitCost, UNIT_COST_PLACES),
      total: cents(itemValue(item)),
      item,
    };
  });
  const total = cents(orderTotal(order));
  const intro = `${context.company.name} (${context.company.document}) envia o pedido de compra ${code} para ${context.supplier.name}.`;
  const delivery = `Entrega em: ${context.warehouseName}${order.expectedAt ? `, previsão ${order.expectedAt.split('-').reverse().join('/')}` : ''}.`;
  const text = [
    intro,
    delivery,
    ...rows.map((row) => `- ${row.code || row.sku} ${row.name}: ${row.quantity} ${row.unit} × ${row.unitCost} = ${row.total}`),
    `Total do pedido: ${total}`,
    ...(order.notes ? [`Observações: ${order.notes}`] : []),
    'Os itens seguem também em anexo (CSV).',
  ].join('\n\n');
  const cell = (value: string, right = false) => `<td${right ? ' style="text-align:right"' : ''}>${escapeHtml(value)}</td>`;
  const html = [
    `<p>${escapeHtml(intro)}</p>`,
    `<p>${escapeHtml(delivery)}</p>`,
    '<table border="1" cellpadding="4" cellspacing="0">',
    '<thead><tr><th>Código</th><th>Produto</th><th>Quantidade</th><th>Custo unitário</th><th>Total</th></tr></thead>',
    '<tbody>',
    ...rows.map(
      (row) =>
        `<tr>${cell(row.code || row.sku)}${cell(row.name)}${cell(`${row.quantity} ${row.unit}`, true)}${cell(row.unitCost, true)}${cell(row.total, true)}</tr>`,
    ),
    '</tbody>',
    `<tfoot><tr><th colspan="4" style="text-align:right">Total do pedido</th>${cell(total, true)}</tr></tfoot>`,
    '</table>',
    ...(order.notes ? [`<p>Observações: ${escapeHtml(order.notes)}</p>`] : []),
  ].join('\n');
  const csv =
    CSV_BOM +
    csvRow(['Código do fornecedor', 'SKU', 'Produto', 'Unidade', 'Quantidade', 'Custo unitário', 'Total']) +
    rows
      .map((row) =>
        csvRow([
          row.code,
          row.sku,
          row.name,
          row.unit,
          formatDecimal(formatScaled(row.item.quantity, QUANTITY_PLACES)),
          formatDecimal(formatScaled(row.item.unitCost, UNIT_COST_PLACES)),
          formatDecimal(formatScaled(roundToCents(itemValue(row.item)), 2)),
        ]),
      )
      .join('');
  return {
    to,
    subject: `Pedido de compra ${code} — ${context.company.name}`,
    text,
    html,
    attachments: [{ filename: `${code}.csv`, contentType: 'text/csv; charset=UTF-8', content: csv }],
  };
}
