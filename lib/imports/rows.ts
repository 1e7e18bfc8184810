import type { CsvTable } from '../csv/read';
import { undefuseFormula } from '../csv/write';
import { ValidationError } from '../errors';
import { parseWith } from '../domain/validation';
import { productBody } from '../inventory/schemas';
import { categoryBody } from '../categories/schemas';
import type { ProductInput } from '../inventory/model';
import { createSupplierBody, type CreateSupplierInput } from '../suppliers/schemas';
import { normalizeText } from '../db/name-order';
import { stockRowBody, type StockRow } from './schemas';
import { IMPORT_COLUMNS, mapHeader, type HeaderMap } from './columns';
import type { ImportKind, RowError } from './model';

/** What a valid row asks for, by kind: the body the API's create route would take. */
export type RowInput =
  { kind: 'suppliers'; input: CreateSupplierInput } | { kind: 'products'; input: ProductInput; category?: string } | { kind: 'stock'; input: StockRow };

/** A data row checked: valid with its input and its unique key (the document, the SKU), or refused with every problem. */
export type CheckedRow = { line: number; ok: true; request: RowInput; key: string } | { line: number; ok: false; errors: RowError[] };

/** The field that makes a record unique in its tenant, by kind, and how the report names it. */
const UNIQUE_FIELD: Record<ImportKind, { field: 'document' | 'sku'; name: string }> = {
  suppliers: { field: 'document', name: 'document' },
  products: { field: 'sku', name: 'SKU' },
  stock: { field: 'sku', name: 'product in the same warehouse' },
};

/** A stock row's key: its warehouse (as names compare) and its product's code. */
const stockKey = (row: StockRow) => `${normalizeText(row.warehouse)}#${row.sku === undefined ? `GTIN:${row.gtin ?? ''}` : `SKU:${row.sku}`}`;

/**
 * Check every data row of `table` with the rules of the API's create route for `kind`
 * (the same schemas, so the same messages), after its header is mapped (lib/imports/columns).
 * A row that repeats the unique key of an earlier valid row is refused, naming that line.
 */
export function checkRows(kind: ImportKind, table: CsvTable, header: HeaderMap = mapHeader(kind, table.header)): CheckedRow[] {
  const columns = IMPORT_COLUMNS[kind];
  const headerOf = (field: string) => header.fields.get(field)?.header ?? field;
  const unique = UNIQUE_FIELD[kind];
  const firstLine = new Map<string, number>();
  return table.rows.map((row): CheckedRow => {
    const errors: RowError[] = [];
    const extra = row.cells.slice(table.header.length).filter((cell) => cell.trim() !== '');
    if (extra.length > 0) errors.push({ line: row.line, field: '', message: `has ${row.cells.length} cells but the header has ${table.header.length}` });
    const body: Record<string, unknown> = {};
    for (const column of columns) {
      const at = header.fields.get(column.field);
      // A cell an export defused reads as the value it was (lib/csv/write `undefuseFormula`).
      const cell = undefuseFormula(at === undefined ? '' : (row.cells[at.index] ?? ''));
      if (cell.trim() === '') continue;
      body[column.field] = column.value ? column.value(cell) : cell;
    }
    let request: RowInput | undefined;
    try {
      if (kind === 'suppliers') request = { kind, input: parseWith(createSupplierBody, body) };
      else if (kind === 'stock') request = { kind, input: parseWith(stockRowBody, body) };
      else {
        // The category by its name (made when the tenant has none of that name: lib/imports/engine).
        const { category, ...fields } = body;
        const named = category === undefined ? undefined : parseWith(categoryBody, { name: category }, 'category').name;
        request = { kind, input: parseWith(productBody, fields), ...(named === undefined ? {} : { category: named }) };
      }
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      for (const problem of error.errors) errors.push({ line: row.line, field: headerOf(problem.field.split('.')[0] ?? ''), message: problem.message });
    }
    if (!request || errors.length > 0) return { line: row.line, ok: false, errors };
    const key = request.kind === 'suppliers' ? request.input.document : request.kind === 'stock' ? stockKey(request.input) : request.input.sku;
    const earlier = firstLine.get(key);
    if (earlier !== undefined) {
      return {
        line: row.line,
        ok: false,
        errors: [{ line: row.line, field: headerOf(unique.field), message: `repeats line ${earlier}: the same ${unique.name}` }],
      };
    }
    firstLine.set(key, row.line);
    return { line: row.line, ok: true, request, key };
  });
}
