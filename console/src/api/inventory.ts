import { keepPreviousData, queryOptions, skipToken, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components, operations } from '@backoffice/client';
import { api, linkPage, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';
import { isProblem } from './problems';

export type Warehouse = components['schemas']['Warehouse'];
export type Product = components['schemas']['Product'];
export type Movement = components['schemas']['Movement'];
export type CreateProduct = components['schemas']['CreateProductRequest'];
export type UpdateProduct = components['schemas']['UpdateProductRequest'];
/** Which products a list shows: ACTIVE (the API's default), INACTIVE or ALL. */
export type ProductStatusFilter = NonNullable<NonNullable<operations['listProducts']['parameters']['query']>['status']>;
type CreateMovement = components['schemas']['CreateMovementRequest'];

/** The stock history's filters, each empty when not chosen. */
export interface HistoryFilters {
  warehouseId: string;
  type: Movement['type'] | '';
  from: string;
  to: string;
}

/**
 * Inventory's query keys: everything under `all` (a new warehouse or product refreshes it
 * whole, the categories' counts with it), the product lists under `productLists` (a changed or deleted product refreshes them),
 * each product's own under `product(id)` (a movement refreshes them), and the dashboard's under
 * `dashboard` (its totals move with every movement, its names with every product change).
 */
export const inventoryKeys = {
  all: ['inventory'] as const,
  warehouses: (cursor: string | undefined) => [...inventoryKeys.all, 'warehouses', 'list', cursor ?? null] as const,
  warehousePicker: () => [...inventoryKeys.all, 'warehouses', 'picker'] as const,
  productLists: ['inventory', 'products'] as const,
  /** A list page's key holds its query as sent: the status only when not the API's default (ACTIVE), the category only when chosen. */
  products: (search: string, cursor: string | undefined, status: ProductStatusFilter = 'ACTIVE', categoryId = '') =>
    [...inventoryKeys.productLists, 'list', search, cursor ?? null, ...(status === 'ACTIVE' ? [] : [status]), ...(categoryId ? [{ categoryId }] : [])] as const,
  /** The categories (api/categories.ts): their product counts move with every product created, changed or deleted. */
  categories: ['inventory', 'categories'] as const,
  product: (id: string) => [...inventoryKeys.all, 'product', id] as const,
  productDetails: (id: string) => [...inventoryKeys.product(id), 'details'] as const,
  balance: (productId: string, warehouseId: string) => [...inventoryKeys.product(productId), 'balance', warehouseId] as const,
  history: (productId: string, filters: HistoryFilters, cursor: string | undefined) =>
    [...inventoryKeys.product(productId), 'history', filters, cursor ?? null] as const,
  dashboard: ['inventory', 'dashboard'] as const,
};

const PAGE_SIZE = 20;

/** GET /inventory/warehouses, one page by name (Link-header cursors); the previous page stays shown while the next loads. */
export function useWarehouses(cursor: string | undefined) {
  return useQuery({
    queryKey: inventoryKeys.warehouses(cursor),
    queryFn: ({ signal }) => linkPage(api.GET('/inventory/warehouses', { params: { query: { limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/**
 * The warehouses a product page chooses from: the first page of 100 (the API's maximum), by
 * name. A tenant with more warehouses than that would need a paged picker.
 */
export function useAllWarehouses() {
  return useQuery({
    queryKey: inventoryKeys.warehousePicker(),
    queryFn: ({ signal }) => linkPage(api.GET('/inventory/warehouses', { params: { query: { limit: 100 } }, signal })),
  });
}

/**
 * GET /inventory/products, one page by SKU of the products of a status (ACTIVE, the API's
 * default, is not sent), of a category (empty: any), of a search (empty: every product of that
 * status); a stale search is cancelled through the query's signal.
 */
export function useProducts(search: string, cursor: string | undefined, status: ProductStatusFilter = 'ACTIVE', categoryId = '') {
  return useQuery({
    queryKey: inventoryKeys.products(search, cursor, status, categoryId),
    queryFn: ({ signal }) =>
      linkPage(
        api.GET('/inventory/products', {
          params: {
            query: {
              limit: PAGE_SIZE,
              ...(status === 'ACTIVE' ? {} : { status }),
              ...(categoryId ? { categoryId } : {}),
              ...(search ? { search } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /inventory/products/{id}: the product with every field and its `version` (its ETag, unquoted). */
export function useProduct(id: string) {
  return useQuery({
    queryKey: inventoryKeys.productDetails(id),
    queryFn: ({ signal }) => unwrap(api.GET('/inventory/products/{id}', { params: { path: { id } }, signal })),
  });
}

/**
 * The latest of a few movements: the one recorded last. The history lists movements by
 * `occurredAt`, so a back-dated movement may come after one recorded later; the balance after
 * the movement recorded last is the balance now.
 */
export function latestRecorded(movements: readonly Movement[]): Movement | undefined {
  let latest: Movement | undefined;
  for (const movement of movements) if (!latest || movement.createdAt > latest.createdAt) latest = movement;
  return latest;
}

/** One warehouse's balance of a product, read from its newest movements there; the balance table and the transfer form share it. */
const balanceQuery = (productId: string, warehouse: Warehouse | undefined) =>
  queryOptions({
    queryKey: inventoryKeys.balance(productId, warehouse?.id ?? ''),
    queryFn:
      productId && warehouse
        ? async ({ signal }) => {
            const page = await unwrap(api.GET('/inventory/movements', { params: { query: { productId, warehouseId: warehouse.id, limit: 10 } }, signal }));
            return { warehouse, movement: latestRecorded(page.items) };
          }
        : skipToken,
  });

/**
 * The product's balance in each warehouse. GET /inventory/products/{id} answers the product
 * only (no balances), so each warehouse's balance is read from its newest movements of the
 * product (GET /inventory/movements?productId&warehouseId), one small query per warehouse.
 */
export function useBalances(productId: string, warehouses: readonly Warehouse[]) {
  return useQueries({ queries: warehouses.map((warehouse) => balanceQuery(productId, warehouse)) });
}

/**
 * The product's balance in one warehouse (the same query as the balance table's: on the product
 * page it is already read); nothing is read until both are chosen.
 */
export function useBalance(productId: string, warehouse: Warehouse | undefined) {
  return useQuery(balanceQuery(productId, warehouse));
}

/** The product's stock history (GET /inventory/movements), newest first, filtered, paged by `nextCursor`; the previous page stays shown while the next loads. */
export function useStockHistory(productId: string, filters: HistoryFilters, cursor: string | undefined) {
  return useQuery({
    queryKey: inventoryKeys.history(productId, filters, cursor),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/inventory/movements', {
          params: {
            query: {
              productId,
              limit: PAGE_SIZE,
              ...(filters.warehouseId ? { warehouseId: filters.warehouseId } : {}),
              ...(filters.type ? { type: filters.type } : {}),
              ...(filters.from ? { from: filters.from } : {}),
              ...(filters.to ? { to: filters.to } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** POST /inventory/warehouses with the form's Idempotency-Key. */
export const createWarehouse = (key: IdempotencyHeader, name: string) => unwrap(api.POST('/inventory/warehouses', { params: { header: key }, body: { name } }));

/** POST /inventory/products with the form's Idempotency-Key. */
export const createProduct = (key: IdempotencyHeader, body: CreateProduct) => unwrap(api.POST('/inventory/products', { params: { header: key }, body }));

/** A product's or a category's `If-Match`: the version it was read at, quoted as its ETag is (`"3"`). */
export const ifMatchOf = (version: number) => `"${version}"`;

/**
 * GET /inventory/products?gtin=…: the one product with this barcode, of any status, or
 * undefined. A lookup the user makes (a scan, then Enter), so a mutation: each scan reads again,
 * nothing is kept in the cache.
 */
export function useProductByGtin({ onSuccess }: MutationCallbacks<Product | undefined, string> = {}) {
  return useMutation({
    mutationFn: async (gtin: string) => {
      const page = await unwrap(api.GET('/inventory/products', { params: { query: { gtin } } }));
      return page[0];
    },
    onSuccess: (product, gtin) => onSuccess?.(product, gtin),
  });
}

/** A change of a product: what changed, and the version the form loaded (sent as If-Match). */
export interface ChangeProduct {
  version: number;
  body: UpdateProduct;
}

/**
 * PATCH /inventory/products/{id} with `If-Match` the version the form loaded: someone else's
 * change since is a 412 and nothing is written. The answer becomes the product's cached view
 * (its new version included); the lists and the dashboard, which show its fields, read again.
 * After a 412 the product is read again, so the page no longer shows the old version.
 */
export function useUpdateProduct(id: string, { onSuccess }: MutationCallbacks<Product, ChangeProduct> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ version, body }: ChangeProduct) =>
      unwrap(api.PATCH('/inventory/products/{id}', { params: { path: { id }, header: { 'If-Match': ifMatchOf(version) } }, body })),
    onSuccess: async (product, change) => {
      queryClient.setQueryData(inventoryKeys.productDetails(id), product);
      onSuccess?.(product, change);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.productLists });
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.dashboard });
      // A product moved between categories changes both counts.
      if (change.body.categoryId !== undefined) await queryClient.invalidateQueries({ queryKey: inventoryKeys.categories });
    },
    // Someone changed it since: what the page shows of it is old too.
    onError: (error) => (isProblem(error, 412) ? queryClient.invalidateQueries({ queryKey: inventoryKeys.productDetails(id) }) : undefined),
  });
}

/**
 * DELETE /inventory/products/{id}: only a product that never had a movement (409 otherwise:
 * deactivate it). Its queries are dropped; the lists, the dashboard and the category counts read again.
 */
export function useDeleteProduct(id: string, { onSuccess }: MutationCallbacks<void, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await unwrap(api.DELETE('/inventory/products/{id}', { params: { path: { id } } }));
    },
    onSuccess: async () => {
      onSuccess?.(undefined, undefined);
      queryClient.removeQueries({ queryKey: inventoryKeys.product(id) });
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.productLists });
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.dashboard });
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.categories });
    },
  });
}

/** A small create (a warehouse, a product: `create` above); everything of inventory read again afterwards. */
export function useCreateInInventory<T>(create: () => Promise<T>, { onSuccess }: MutationCallbacks<T, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: create,
    onSuccess: async (created) => {
      onSuccess?.(created, undefined);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
    },
  });
}

/** A movement to record, with the open form's Idempotency-Key. */
export interface RecordMovement {
  key: IdempotencyHeader;
  body: CreateMovement;
}

/** POST /inventory/movements; the product's balances and history, then the dashboard, read again afterwards. */
export function useRecordMovement(productId: string, { onSuccess }: MutationCallbacks<Movement, RecordMovement> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, body }: RecordMovement) => unwrap(api.POST('/inventory/movements', { params: { header: key }, body })),
    onSuccess: async (movement, recorded) => {
      onSuccess?.(movement, recorded);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.product(productId) });
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.dashboard });
    },
  });
}
