import type { ProductStatusFilter } from '../../api/inventory';

/**
 * The product list's filters as an address (`/inventory?categoryId=…&status=ALL`), so another
 * page can open the list already filtered (the categories page, for a category's products).
 */
export interface ProductFilters {
  status: ProductStatusFilter;
  categoryId: string;
}

export const STATUS_FILTERS: readonly ProductStatusFilter[] = ['ACTIVE', 'INACTIVE', 'ALL'];

/** The filters an address names; ACTIVE and every category when it names none (or a status the API has not). */
export function filtersOfSearch(search: string): ProductFilters {
  const query = new URLSearchParams(search);
  const status = STATUS_FILTERS.find((value) => value === query.get('status')) ?? 'ACTIVE';
  return { status, categoryId: query.get('categoryId') ?? '' };
}

/** The inventory page listing the products of a category, whatever their status (a category's count holds them all). */
export const categoryProductsPath = (categoryId: string) => `/inventory?${new URLSearchParams({ categoryId, status: 'ALL' }).toString()}`;
