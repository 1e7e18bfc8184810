import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, linkPage, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';

export type Warehouse = components['schemas']['Warehouse'];
export type Product = components['schemas']['Product'];
export type Movement = components['schemas']['Movement'];
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
 * whole), each product's own under `product(id)` (a movement refreshes them), and the
 * dashboard's under `dashboard` (its totals move with every movement).
 */
export const inventoryKeys = {
  all: ['inventory'] as const,
  warehouses: (cursor: string | undefined) => [...inventoryKeys.all, 'warehouses', 'list', cursor ?? null] as const,
  warehousePicker: () => [...inventoryKeys.all, 'warehouses', 'picker'] as const,
  products: (search: string, cursor: string | undefined) => [...inventoryKeys.all, 'products', 'list', search, cursor ?? null] as const,
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

/** GET /inventory/products, one page by SKU, of a search (empty: every product); a stale search is cancelled through the query's signal. */
export function useProducts(search: string, cursor: string | undefined) {
  return useQuery({
    queryKey: inventoryKeys.products(search, cursor),
    queryFn: ({ signal }) =>
      linkPage(
        api.GET('/inventory/products', {
          params: { query: { limit: PAGE_SIZE, ...(search ? { search } : {}), ...(cursor ? { cursor } : {}) } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

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

/**
 * The product's balance in each warehouse. GET /inventory/products/{id} answers the product
 * only (no balances), so each warehouse's balance is read from its newest movements of the
 * product (GET /inventory/movements?productId&warehouseId), one small query per warehouse.
 */
export function useBalances(productId: string, warehouses: readonly Warehouse[]) {
  return useQueries({
    queries: warehouses.map((warehouse) => ({
      queryKey: inventoryKeys.balance(productId, warehouse.id),
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const page = await unwrap(api.GET('/inventory/movements', { params: { query: { productId, warehouseId: warehouse.id, limit: 10 } }, signal }));
        return { warehouse, movement: latestRecorded(page.items) };
      },
    })),
  });
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
export const createProduct = (key: IdempotencyHeader, body: { sku: string; name: string }) =>
  unwrap(api.POST('/inventory/products', { params: { header: key }, body }));

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
