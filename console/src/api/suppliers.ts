import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';

type Supplier = components['schemas']['Supplier'];
type CreateSupplierBody = components['schemas']['CreateSupplierRequest'];
type UpdateSupplierBody = components['schemas']['UpdateSupplierRequest'];

/** One numbered page of one search (an empty search: every supplier). */
export interface SupplierSearch {
  search: string;
  page: number;
}

/** The suppliers' query keys: a new search or page is a new query, the old one cancelled. */
export const supplierKeys = {
  all: ['suppliers'] as const,
  list: ({ search, page }: SupplierSearch) => [...supplierKeys.all, 'list', { search, page }] as const,
  one: (id: string) => [...supplierKeys.all, 'one', id] as const,
};

export const SUPPLIERS_PAGE_SIZE = 10;

/** GET /suppliers, one numbered page of a search; a stale search is cancelled through the query's signal. */
export function useSuppliers({ search, page }: SupplierSearch) {
  return useQuery({
    queryKey: supplierKeys.list({ search, page }),
    queryFn: ({ signal }) => unwrap(api.GET('/suppliers', { params: { query: { search: search || undefined, page, limit: SUPPLIERS_PAGE_SIZE } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** GET /suppliers/{id}: one supplier (a page of its own, as its products' page, names it). */
export function useSupplier(id: string) {
  return useQuery({
    queryKey: supplierKeys.one(id),
    queryFn: ({ signal }) => unwrap(api.GET('/suppliers/{id}', { params: { path: { id } }, signal })),
  });
}

/** A supplier saved from its form: a new one with the form's Idempotency-Key, or an existing one with what changed (nothing: no call). */
export type SaveSupplier =
  { record: undefined; key: IdempotencyHeader; create: CreateSupplierBody } | { record: Supplier; update: UpdateSupplierBody | undefined };

/** POST /suppliers or PATCH /suppliers/{id}; the suppliers read again afterwards. */
export function useSaveSupplier({ onSuccess }: MutationCallbacks<Supplier, SaveSupplier> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (save: SaveSupplier): Promise<Supplier> => {
      if (!save.record) return unwrap(api.POST('/suppliers', { params: { header: save.key }, body: save.create }));
      if (!save.update) return save.record;
      return unwrap(api.PATCH('/suppliers/{id}', { params: { path: { id: save.record.id } }, body: save.update }));
    },
    onSuccess: (saved, save) => {
      onSuccess?.(saved, save);
      void queryClient.invalidateQueries({ queryKey: supplierKeys.all });
    },
  });
}

/** DELETE /suppliers/{id}; the suppliers read again afterwards. */
export function useDeleteSupplier({ onSuccess }: MutationCallbacks<void, Supplier> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (supplier: Supplier) => {
      await unwrap(api.DELETE('/suppliers/{id}', { params: { path: { id: supplier.id } } }));
    },
    onSuccess: async (_, supplier) => {
      onSuccess?.(undefined, supplier);
      await queryClient.invalidateQueries({ queryKey: supplierKeys.all });
    },
  });
}
