import { useQueries, useQuery } from '@tanstack/react-query';
import { api, linkPage, unwrap } from '../../api/client';
import type { components } from '@backoffice/client';

export type Warehouse = components['schemas']['Warehouse'];
export type Product = components['schemas']['Product'];
export type Movement = components['schemas']['Movement'];

/**
 * The warehouses a product page chooses from: the first page of 100 (the API's maximum), by
 * name. A tenant with more warehouses than that would need a paged picker.
 */
export function useAllWarehouses() {
  return useQuery({
    queryKey: ['inventory', 'warehouses', 'picker'],
    queryFn: ({ signal }) => linkPage(api.GET('/inventory/warehouses', { params: { query: { limit: 100 } }, signal })),
  });
}

export function useProduct(id: string) {
  return useQuery({
    queryKey: ['inventory', 'product', id, 'details'],
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
      queryKey: ['inventory', 'product', productId, 'balance', warehouse.id],
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const page = await unwrap(api.GET('/inventory/movements', { params: { query: { productId, warehouseId: warehouse.id, limit: 10 } }, signal }));
        return { warehouse, movement: latestRecorded(page.items) };
      },
    })),
  });
}
