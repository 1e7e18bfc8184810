import type { AuditEntry } from '../audit/model';
import { formatScaled, MONEY_PLACES, parseScaled, QUANTITY_PLACES, UNIT_COST_PLACES } from '../domain/decimal';
import { formatDocument } from '../domain/documents';
import { formatDecimal } from '../csv/write';
import type { MovementType, Product, StoredMovement } from '../inventory/model';
import type { Supplier } from '../suppliers/model';
import type { ExportJob, ExportKind } from './model';

/**
 * What each export's rows hold, cell by cell, as a Brazilian spreadsheet reads them: header
 * names in Portuguese (for suppliers and products the names the importer knows,
 * lib/imports/columns, so an export can be imported back), decimals exact with a comma
 * (lib/csv/write `formatDecimal`), instants as ISO 8601 in UTC, yes/no as `sim`/`não`.
 */

export type Cells = (string | null)[];

export const SUPPLIER_HEADER: Cells = ['Nome', 'Razão social', 'CNPJ/CPF', 'E-mail', 'Telefone', 'Ativo'];

/**
 * A phone as the importer reads it back (lib/imports/columns `brazilianPhone`): a Brazilian one
 * as it is written there, "(11) 98765-4321"; another country's in E.164, which the CSV writer
 * prefixes with `'` (a leading `+` is a formula to a spreadsheet).
 */
export function spreadsheetPhone(e164: string): string {
  const national = /^\+55(\d{2})(\d{4,5})(\d{4})$/.exec(e164);
  return national ? `(${national[1]}) ${national[2]}-${national[3]}` : e164;
}

export const supplierCells = (supplier: Supplier): Cells => [
  supplier.name,
  supplier.corporateName,
  formatDocument(supplier.document),
  supplier.email,
  supplier.phone === null ? null : spreadsheetPhone(supplier.phone),
  supplier.active ? 'sim' : 'não',
];

/** An exact count of 10^-places units as the cell writes it: "1234,5". */
export const decimalCell = (units: bigint, places: number): string => formatDecimal(formatScaled(units, places));

/** The products' header: every field of the product, then one column per warehouse after the total, named after it. */
export const productHeader = (warehouseNames: readonly string[]): Cells => [
  'Código',
  'Descrição',
  'Unidade',
  'GTIN/EAN',
  'NCM',
  'CEST',
  'Preço de venda',
  'Marca',
  'Categoria',
  'Situação',
  'Descrição complementar',
  'Saldo total',
  ...warehouseNames.map((name) => `Saldo em ${name}`),
];

export const productCells = (product: Product, perWarehouse: readonly bigint[], categoryName: string | null = null): Cells => [
  product.sku,
  product.name,
  product.unit,
  product.gtin,
  product.ncm,
  product.cest,
  product.salePrice === null ? null : decimalCell(product.salePrice, MONEY_PLACES),
  product.brand,
  categoryName,
  product.status === 'ACTIVE' ? 'Ativo' : 'Inativo',
  product.description,
  decimalCell(product.onHand, QUANTITY_PLACES),
  ...perWarehouse.map((quantity) => decimalCell(quantity, QUANTITY_PLACES)),
];

export const MOVEMENT_TYPE_NAMES: Record<MovementType, string> = {
  IN: 'Entrada',
  OUT: 'Saída',
  SALE: 'Venda',
  ADJUSTMENT: 'Ajuste',
  TRANSFER_OUT: 'Transferência (saída)',
  TRANSFER_IN: 'Transferência (entrada)',
};

export const MOVEMENT_HEADER: Cells = [
  'Data',
  'Tipo',
  'Código',
  'Produto',
  'Depósito',
  'Quantidade',
  'Custo unitário',
  'Saldo após',
  'Custo médio após',
  'ID da movimentação',
];

/** A stored number with at most `places` decimals (a movement's quantity and unit cost) as its exact cell. */
function numberCell(value: number, places: number): string {
  const units = parseScaled(value, places);
  if (units === undefined) throw new RangeError(`a stored amount has more than ${places} decimals: ${value}`);
  return decimalCell(units, places);
}

export const movementCells = (movement: StoredMovement, product: { sku: string; name: string } | undefined, warehouseName: string | undefined): Cells => [
  movement.occurredAt,
  MOVEMENT_TYPE_NAMES[movement.movementType],
  product?.sku ?? null,
  product?.name ?? null,
  warehouseName ?? null,
  numberCell(movement.quantity, QUANTITY_PLACES),
  movement.unitCost === null ? null : numberCell(movement.unitCost, UNIT_COST_PLACES),
  decimalCell(movement.balanceAfter, QUANTITY_PLACES),
  decimalCell(movement.averageCostAfter, UNIT_COST_PLACES),
  movement.id,
];

export const AUDIT_HEADER: Cells = [
  'Data',
  'Ação',
  'Autor',
  'Tipo de autor',
  'ID do autor',
  'Recurso',
  'ID do recurso',
  'IP',
  'Navegador',
  'ID da requisição',
  'Alterações',
];

export const auditCells = (entry: AuditEntry): Cells => [
  entry.occurredAt,
  entry.action,
  entry.actor.name,
  entry.actor.type,
  entry.actor.id,
  entry.resource.type,
  entry.resource.id,
  entry.sourceIp,
  entry.userAgent,
  entry.requestId,
  entry.changes === null ? null : JSON.stringify(entry.changes),
];

const FILE_STEMS: Record<ExportKind, string> = { suppliers: 'fornecedores', products: 'produtos', 'stock-history': 'movimentacoes', audit: 'auditoria' };

/** The name a job's file downloads as: what it holds, and its period or the day it was made (UTC). */
export function exportFileName(job: Pick<ExportJob, 'kind' | 'from' | 'to' | 'createdAt'>): string {
  const period = job.from !== null && job.to !== null ? `${job.from}-a-${job.to}` : job.createdAt.slice(0, 10);
  return `${FILE_STEMS[job.kind]}-${period}.csv`;
}
