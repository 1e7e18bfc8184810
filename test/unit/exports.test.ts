import { describe, expect, it } from 'vitest';
import { csvRow } from '../../lib/csv/write';
import { ValidationError } from '../../lib/errors';
import { auditCells, exportFileName, movementCells, productCells, productHeader, spreadsheetPhone, supplierCells } from '../../lib/exports/columns';
import { parseWith } from '../../lib/domain/validation';
import { periodBounds } from '../../lib/exports/engine';
import { createExportBody } from '../../lib/exports/schemas';
import { checkPeriod, fileKept } from '../../lib/exports/service';

/** The pure parts of the exports: cells, file names, the period's rules and bounds, how long a file is kept. */

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError) return error.errors;
    throw error;
  }
  throw new Error('not refused');
};

describe('cells', () => {
  it('writes a supplier as the importer reads it back: document punctuated, a Brazilian phone national, yes as sim', () => {
    const supplier = {
      id: 'x',
      name: 'Açaí',
      corporateName: 'Açaí LTDA',
      document: '12345678000195',
      email: null,
      phone: '+5511987654321',
      active: true,
      createdAt: '',
      updatedAt: '',
    };
    expect(supplierCells(supplier)).toEqual(['Açaí', 'Açaí LTDA', '12.345.678/0001-95', null, '(11) 98765-4321', 'sim']);
    expect(supplierCells({ ...supplier, phone: null, active: false })[5]).toBe('não');
  });

  it('writes a phone of another country in E.164, which the writer defuses', () => {
    expect([spreadsheetPhone('+551134567890'), spreadsheetPhone('+14155550100')]).toEqual(['(11) 3456-7890', '+14155550100']);
    expect(csvRow([spreadsheetPhone('+14155550100')])).toBe("'+14155550100\r\n");
  });

  it('writes quantities and costs exactly, with a comma, from the stored units and from stored numbers', () => {
    expect(productHeader(['Norte'])).toEqual([
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
      'Saldo em Norte',
    ]);
    const product = {
      id: 'p',
      sku: 'A',
      name: 'B',
      description: null,
      brand: 'Marca',
      unit: 'KG' as const,
      gtin: '7891000315507',
      ncm: '09012100',
      cest: null,
      salePrice: 123456n,
      status: 'INACTIVE' as const,
      categoryId: 'c',
      createdAt: '',
      updatedAt: '',
      version: 1,
      onHand: 1234567n,
    };
    expect(productCells(product, [1234000n, 567n, 0n], 'Mercearia')).toEqual([
      'A',
      'B',
      'KG',
      '7891000315507',
      '09012100',
      null,
      '1234,56',
      'Marca',
      'Mercearia',
      'Inativo',
      null,
      '1234,567',
      '1234',
      '0,567',
      '0',
    ]);
    const movement = {
      id: 'm',
      tenantId: 't',
      productId: 'p',
      warehouseId: 'w',
      movementType: 'ADJUSTMENT' as const,
      quantity: -0.001,
      unitCost: 0.1234,
      transferId: null,
      counterpartWarehouseId: null,
      occurredAt: '2026-01-01T00:00:00.000Z',
      createdAt: '',
      day: '2026-01-01',
      balanceAfter: 99999999999999999n,
      averageCostAfter: 5n,
    };
    expect(movementCells(movement, { sku: 'A', name: 'B' }, undefined)).toEqual([
      '2026-01-01T00:00:00.000Z',
      'Ajuste',
      'A',
      'B',
      null,
      '-0,001',
      '0,1234',
      '99999999999999,999',
      '0,0005',
      'm',
    ]);
    expect(() => movementCells({ ...movement, quantity: 0.1 + 0.2 }, undefined, undefined)).toThrow(RangeError);
  });

  it('writes an audit entry with its changes as JSON', () => {
    const entry = {
      id: 'e',
      occurredAt: '2026-01-01T00:00:00.000Z',
      actor: { type: 'user' as const, id: 'u', name: 'Ana' },
      action: 'supplier.updated' as const,
      resource: { type: 'supplier' as const, id: 's' },
      requestId: 'r',
      sourceIp: '203.0.113.9',
      userAgent: 'ua',
      changes: [{ field: 'name', before: 'A', after: 'B' }],
    };
    expect(auditCells(entry)).toEqual([
      '2026-01-01T00:00:00.000Z',
      'supplier.updated',
      'Ana',
      'user',
      'u',
      'supplier',
      's',
      '203.0.113.9',
      'ua',
      'r',
      '[{"field":"name","before":"A","after":"B"}]',
    ]);
  });
});

describe('file names', () => {
  it('names the file for what it holds and its period, or the day it was made', () => {
    expect(exportFileName({ kind: 'suppliers', from: null, to: null, createdAt: '2026-11-26T23:59:00.000Z' })).toBe('fornecedores-2026-11-26.csv');
    expect(exportFileName({ kind: 'products', from: null, to: null, createdAt: '2026-11-26T10:00:00.000Z' })).toBe('produtos-2026-11-26.csv');
    expect(exportFileName({ kind: 'stock-history', from: '2026-01-01', to: '2026-01-31', createdAt: '' })).toBe('movimentacoes-2026-01-01-a-2026-01-31.csv');
    expect(exportFileName({ kind: 'audit', from: '2026-02-01', to: '2026-02-01', createdAt: '' })).toBe('auditoria-2026-02-01-a-2026-02-01.csv');
  });
});

describe('periods', () => {
  it('takes none for suppliers and products, and a period of at most 366 days for the others', () => {
    expect(checkPeriod({ kind: 'suppliers' })).toEqual({ from: null, to: null });
    expect(checkPeriod({ kind: 'audit', from: '2024-01-01', to: '2025-01-01' })).toEqual({ from: '2024-01-01', to: '2025-01-01' });
    expect(refusal(() => checkPeriod({ kind: 'stock-history', from: '2026-01-02', to: '2026-01-01' }))).toEqual([
      { field: 'to', message: 'must not be before from' },
    ]);
    expect(refusal(() => checkPeriod({ kind: 'stock-history', from: '2024-01-01', to: '2025-01-02' }))).toEqual([
      { field: 'to', message: 'must be at most 366 days after from' },
    ]);
  });

  it('refuses a period for suppliers and products, and requires one for the others, naming the field', () => {
    const errors = (input: unknown) => refusal(() => parseWith(createExportBody, input));
    expect(errors({ kind: 'products', from: '2026-01-01', to: '2026-01-02' })).toEqual([
      { field: 'from', message: 'unknown field' },
      { field: 'to', message: 'unknown field' },
    ]);
    expect(errors({ kind: 'audit', to: '2026-01-02' })).toEqual([{ field: 'from', message: 'is required' }]);
    expect(errors({ kind: 'audit', from: '2026-02-30', to: '2026-03-01' })).toEqual([{ field: 'from', message: 'must be a day written YYYY-MM-DD' }]);
    expect(errors({ kind: 'clients' })).toEqual([{ field: 'kind', message: 'must be one of suppliers, products, stock-history, audit' }]);
  });

  it("bounds a period by its first day's first instant and its last day's last, in the business time zone", () => {
    expect(periodBounds('2026-01-01', '2026-01-31', 'America/Sao_Paulo')).toEqual({ fromSk: '2026-01-01T03:00:00.000Z', toSk: '2026-02-01T02:59:59.999Z#~' });
  });
});

describe('files kept', () => {
  it('offers a download of a done job for 7 days after it was written', () => {
    const finishedAt = '2026-11-01T12:00:00.000Z';
    const at = Date.parse(finishedAt);
    expect(fileKept({ status: 'done', finishedAt }, at + 7 * 24 * 3600 * 1000 - 1)).toBe(true);
    expect(fileKept({ status: 'done', finishedAt }, at + 7 * 24 * 3600 * 1000)).toBe(false);
    expect(fileKept({ status: 'failed', finishedAt }, at)).toBe(false);
    expect(fileKept({ status: 'running', finishedAt: null }, at)).toBe(false);
  });
});
