import { normalizeHeader } from '../csv/read';
import type { ImportKind } from './model';

/**
 * The columns of each kind of import: the API field each fills, the header names that mean it
 * (Portuguese as Bling, Tiny, Omie and Excel users write them, and English), compared after
 * `normalizeHeader` (case, accents, spaces and punctuation do not matter), and how a cell
 * becomes the field's value in the API's request body. Columns no field claims are ignored
 * (and listed in the report), so an ERP's export can be imported as it is.
 */
export interface Column {
  field: string;
  required: boolean;
  headers: readonly string[];
  /** The cell as the API's body takes it; undefined leaves the field out (an empty cell). */
  value?: (cell: string) => unknown;
}

/** `sim`/`não` and their kin, as a spreadsheet writes a yes or no; anything else is left for the API's rule to refuse. */
export function yesOrNo(cell: string): unknown {
  const word = normalizeHeader(cell);
  if (['sim', 's', 'ativo', 'ativa', 'true', 'verdadeiro', 'yes', 'y', '1', 'active'].includes(word)) return true;
  if (['nao', 'n', 'inativo', 'inativa', 'false', 'falso', 'no', '0', 'inactive'].includes(word)) return false;
  return cell;
}

/**
 * A phone as a Brazilian spreadsheet writes it, "(11) 98765-4321", in the international form
 * the API takes: +55 is added to a national number of 10 or 11 digits (after a trunk 0), or to
 * 12 or 13 digits that start with 55. Anything else is left as it is, for the API's rule.
 */
export function brazilianPhone(cell: string): string {
  const text = cell.trim();
  if (text.startsWith('+')) return text;
  const digits = text.replace(/\D/g, '').replace(/^0(?=\d{10,11}$)/, '');
  if (digits.length === 10 || digits.length === 11) return `+55${digits}`;
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) return `+${digits}`;
  return text;
}

/** A CPF or CNPJ as spreadsheets punctuate it, "12.345.678/0001-95", without its dots, slash, dash and spaces, as the API takes it. */
export const bareDocument = (cell: string): string => cell.replace(/[.\-/\s]/g, '');

/**
 * A decimal as a Brazilian spreadsheet writes it, "1.234,56" or "18,90" (or "18.90"), as the
 * number the API takes: the thousands dots dropped, the comma a point. Anything else is left as
 * it is, for the API's rule to refuse with its message.
 */
export function brazilianDecimal(cell: string): unknown {
  const text = cell.trim().replace(/^R\$\s*/, '');
  if (/^\d{1,3}(?:\.\d{3})+(?:,\d+)?$/.test(text)) return Number(text.replace(/\./g, '').replace(',', '.'));
  if (/^\d+(?:[.,]\d+)?$/.test(text)) return Number(text.replace(',', '.'));
  return cell;
}

/** A code spreadsheets punctuate ("0901.21.00", "789 1000 31550 7") as its digits; anything with other characters is left for the API's rule. */
export const bareDigits = (cell: string): string => (/^[\d.\s-]+$/.test(cell.trim()) ? cell.replace(/[.\s-]/g, '') : cell.trim());

/** A product's status as a spreadsheet writes it (`Ativo`, `Inativo`, `sim`, `não`, …); anything else is left for the API's rule. */
export function productStatus(cell: string): unknown {
  const flag = yesOrNo(cell);
  return flag === true ? 'ACTIVE' : flag === false ? 'INACTIVE' : cell.trim().toUpperCase();
}

export const IMPORT_COLUMNS: Record<ImportKind, readonly Column[]> = {
  suppliers: [
    { field: 'name', required: true, headers: ['name', 'nome', 'nome fantasia', 'fantasia', 'trade name'] },
    { field: 'corporateName', required: true, headers: ['corporateName', 'razao social', 'razao', 'corporate name', 'legal name'] },
    {
      field: 'document',
      required: true,
      headers: ['document', 'documento', 'cnpj', 'cpf', 'cnpj/cpf', 'cpf/cnpj', 'cnpj cpf', 'cpf cnpj'],
      value: bareDocument,
    },
    { field: 'email', required: false, headers: ['email', 'e-mail', 'e mail', 'correio eletronico'] },
    { field: 'phone', required: false, headers: ['phone', 'telefone', 'fone', 'celular', 'telephone'], value: brazilianPhone },
    { field: 'active', required: false, headers: ['active', 'ativo', 'situacao', 'status'], value: yesOrNo },
  ],
  products: [
    { field: 'sku', required: true, headers: ['sku', 'codigo', 'codigo sku', 'cod', 'referencia', 'code', 'product code'] },
    { field: 'name', required: true, headers: ['name', 'nome', 'descricao', 'produto', 'description', 'product'] },
    { field: 'unit', required: false, headers: ['unit', 'unidade', 'un', 'und', 'unid', 'unidade de medida'], value: (cell) => cell.trim().toUpperCase() },
    { field: 'gtin', required: false, headers: ['gtin', 'ean', 'gtin/ean', 'gtin ean', 'codigo de barras', 'cod barras', 'barcode'], value: bareDigits },
    { field: 'ncm', required: false, headers: ['ncm', 'classificacao fiscal'], value: bareDigits },
    { field: 'cest', required: false, headers: ['cest'], value: bareDigits },
    {
      field: 'salePrice',
      required: false,
      headers: ['salePrice', 'preco', 'preco de venda', 'preco venda', 'valor de venda', 'sale price', 'price'],
      value: brazilianDecimal,
    },
    { field: 'brand', required: false, headers: ['brand', 'marca'] },
    { field: 'category', required: false, headers: ['category', 'categoria', 'grupo', 'grupo de produtos', 'departamento'] },
    { field: 'status', required: false, headers: ['status', 'situacao', 'ativo'], value: productStatus },
    { field: 'description', required: false, headers: ['descricao complementar', 'descricao detalhada', 'long description', 'details'] },
  ],
  // Opening stock: the product by SKU or GTIN (one of them: lib/imports/rows), the warehouse by name.
  stock: [
    { field: 'sku', required: false, headers: ['sku', 'codigo', 'codigo sku', 'cod', 'referencia', 'code', 'product code'] },
    { field: 'gtin', required: false, headers: ['gtin', 'ean', 'gtin/ean', 'gtin ean', 'codigo de barras', 'cod barras', 'barcode'], value: bareDigits },
    { field: 'warehouse', required: true, headers: ['warehouse', 'deposito', 'almoxarifado', 'local de estoque', 'local'] },
    {
      field: 'quantity',
      required: true,
      headers: ['quantity', 'quantidade', 'qtd', 'qtde', 'saldo', 'estoque', 'saldo em estoque', 'estoque atual', 'stock'],
      value: brazilianDecimal,
    },
    {
      field: 'unitCost',
      required: false,
      headers: ['unitCost', 'custo unitario', 'custo', 'preco de custo', 'custo medio', 'unit cost', 'cost'],
      value: brazilianDecimal,
    },
  ],
};

/** Where each field's column is in the header, the header cells no column claims, and the required columns that are missing. */
export interface HeaderMap {
  /** field → index of its column in the header, and the header's own text for it. */
  fields: Map<string, { index: number; header: string }>;
  ignored: string[];
  missing: Column[];
}

export function mapHeader(kind: ImportKind, header: readonly string[]): HeaderMap {
  const columns = IMPORT_COLUMNS[kind];
  const byName = new Map<string, Column>();
  for (const column of columns) for (const name of column.headers) byName.set(normalizeHeader(name), column);
  const fields = new Map<string, { index: number; header: string }>();
  const ignored: string[] = [];
  header.forEach((text, index) => {
    const column = byName.get(normalizeHeader(text));
    // The first column that names a field fills it; a second one is ignored, as an unknown one.
    if (column && !fields.has(column.field)) fields.set(column.field, { index, header: text });
    else if (text.trim() !== '') ignored.push(text);
  });
  return { fields, ignored, missing: columns.filter((column) => column.required && !fields.has(column.field)) };
}
