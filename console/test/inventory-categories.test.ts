import { describe, expect, it } from 'vitest';
import { categoryKeys } from '../src/api/categories';
import { inventoryKeys, type Product } from '../src/api/inventory';
import { productChange, productFormOf } from '../src/pages/inventory/product';
import { categoryProductsPath, filtersOfSearch } from '../src/pages/inventory/product-filters';

const DRINKS = '33333333-3333-4333-8333-333333333333';
const SNACKS = '44444444-4444-4444-8444-444444444444';

const product = (over: Partial<Product> = {}): Product => ({
  id: '11111111-1111-4111-8111-111111111111',
  sku: 'CAFE-500',
  name: 'Café torrado 500 g',
  description: null,
  brand: null,
  unit: 'UN',
  gtin: null,
  ncm: null,
  cest: null,
  salePrice: null,
  status: 'ACTIVE',
  categoryId: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  version: 1,
  ...over,
});

describe('a product’s category in its form', () => {
  it('starts empty for a product without one, and sends the category chosen', () => {
    const form = productFormOf(product(), 'en');
    expect(form.categoryId).toBe('');
    expect(productChange({ ...form, categoryId: DRINKS }, product(), 'en')).toEqual({ ok: true, body: { categoryId: DRINKS } });
  });

  it('sends null to clear it, and nothing when it is left as it was', () => {
    const inDrinks = product({ categoryId: DRINKS });
    const form = productFormOf(inDrinks, 'en');
    expect(form.categoryId).toBe(DRINKS);
    expect(productChange(form, inDrinks, 'en')).toEqual({ ok: true, body: undefined });
    expect(productChange({ ...form, categoryId: '' }, inDrinks, 'en')).toEqual({ ok: true, body: { categoryId: null } });
    expect(productChange({ ...form, categoryId: SNACKS }, inDrinks, 'en')).toEqual({ ok: true, body: { categoryId: SNACKS } });
  });
});

describe('the product list’s filters in its address', () => {
  it('reads the category and the status the categories page links with', () => {
    expect(categoryProductsPath(DRINKS)).toBe(`/inventory?categoryId=${DRINKS}&status=ALL`);
    expect(filtersOfSearch(`categoryId=${DRINKS}&status=ALL`)).toEqual({ status: 'ALL', categoryId: DRINKS });
  });

  it('lists the active products of every category when the address names nothing, or a status the API has not', () => {
    expect(filtersOfSearch('')).toEqual({ status: 'ACTIVE', categoryId: '' });
    expect(filtersOfSearch('status=GONE')).toEqual({ status: 'ACTIVE', categoryId: '' });
  });
});

describe('the categories’ query keys', () => {
  it('sit under inventory’s, so a product created, moved or deleted refreshes their counts', () => {
    for (const key of [categoryKeys.list(undefined), categoryKeys.picker(), categoryKeys.one(DRINKS)]) {
      expect(key.slice(0, inventoryKeys.all.length)).toEqual([...inventoryKeys.all]);
      expect(key.slice(0, categoryKeys.all.length)).toEqual([...categoryKeys.all]);
    }
  });

  it('keep a product list of one category apart from the others', () => {
    expect(inventoryKeys.products('', undefined, 'ALL', DRINKS)).toEqual(['inventory', 'products', 'list', '', null, 'ALL', { categoryId: DRINKS }]);
    expect(inventoryKeys.products('', undefined)).toEqual(['inventory', 'products', 'list', '', null]);
  });
});
