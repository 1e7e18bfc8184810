import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';
import { ifMatchOf, inventoryKeys } from './inventory';
import { isProblem } from './problems';
import { supplierKeys } from './suppliers';

/**
 * What a supplier sells: the link between a supplier and a product, with the supplier's terms
 * for it (its code, unit and pack, last cost, lead time, minimum order, preferred), the
 * product's SKU and name and the supplier's name as they are now, and its `version` (the ETag).
 */
export type SupplierProduct = components['schemas']['CreateSupplierProductResponse'];
export type CreateSupplierProductBody = components['schemas']['CreateSupplierProductRequest'];
export type UpdateSupplierProductBody = components['schemas']['UpdateSupplierProductRequest'];
/** The terms a link can be given (everything of a create but the product). */
export type SupplierProductTerms = Omit<CreateSupplierProductBody, 'productId'>;

/**
 * The links' query keys. A supplier's products sit under the suppliers' (`['suppliers',
 * 'products', supplierId, …]`: a supplier renamed or deleted reads them again); a product's
 * suppliers under the product's own (`inventoryKeys.product(id)`: a movement, which may set a
 * supplier's last cost, reads them again). A write reads every supplier's list again (a link
 * made preferred takes the mark from the product's other supplier, whose version moves too)
 * and the product's.
 */
export const supplierProductKeys = {
  ofSuppliers: [...supplierKeys.all, 'products'] as const,
  ofSupplier: (supplierId: string) => [...supplierProductKeys.ofSuppliers, supplierId] as const,
  supplierPage: (supplierId: string, cursor: string | undefined) => [...supplierProductKeys.ofSupplier(supplierId), 'page', cursor ?? null] as const,
  link: (supplierId: string, productId: string) => [...supplierProductKeys.ofSupplier(supplierId), 'link', productId] as const,
  ofProduct: (productId: string) => [...inventoryKeys.product(productId), 'suppliers'] as const,
  productPage: (productId: string, cursor: string | undefined) => [...supplierProductKeys.ofProduct(productId), cursor ?? null] as const,
};

/** A page of a supplier's products. */
export const SUPPLIER_PRODUCTS_PAGE = 20;
/** A page of a product's suppliers (a product has a few). */
export const PRODUCT_SUPPLIERS_PAGE = 10;

/** GET /suppliers/{id}/products: one page (in the API's order, by product id), paged by `nextCursor`; the previous page stays shown while the next loads. */
export function useSupplierProducts(supplierId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: supplierProductKeys.supplierPage(supplierId, cursor),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/suppliers/{id}/products', {
          params: { path: { id: supplierId }, query: { limit: SUPPLIER_PRODUCTS_PAGE, ...(cursor ? { cursor } : {}) } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /inventory/products/{id}/suppliers: one page of the suppliers who sell a product (by supplier id), paged by `nextCursor`. */
export function useProductSuppliers(productId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: supplierProductKeys.productPage(productId, cursor),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/inventory/products/{id}/suppliers', {
          params: { path: { id: productId }, query: { limit: PRODUCT_SUPPLIERS_PAGE, ...(cursor ? { cursor } : {}) } },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

const readLink = (supplierId: string, productId: string, signal: AbortSignal) =>
  unwrap(api.GET('/suppliers/{id}/products/{productId}', { params: { path: { id: supplierId, productId } }, signal }));

/**
 * Whether the supplier already sells the product (GET /suppliers/{id}/products/{productId}):
 * the link, or null (404). Read only when `enabled`: after a create refused with 409, it tells
 * a product already linked from a supplier code already used for another product.
 */
export function useSupplierProductLink(supplierId: string, productId: string, enabled: boolean) {
  return useQuery({
    queryKey: supplierProductKeys.link(supplierId, productId),
    queryFn: async ({ signal }) => {
      try {
        return await readLink(supplierId, productId, signal);
      } catch (error) {
        if (isProblem(error, 404)) return null;
        throw error;
      }
    },
    enabled: enabled && Boolean(supplierId && productId),
    staleTime: 0,
  });
}

/** Reads a link again (after a 412): the form or the question then starts from it as it is now. */
export function useReloadSupplierProduct() {
  const queryClient = useQueryClient();
  return (link: Pick<SupplierProduct, 'supplierId' | 'productId'>) =>
    queryClient.fetchQuery({
      queryKey: supplierProductKeys.link(link.supplierId, link.productId),
      queryFn: ({ signal }) => readLink(link.supplierId, link.productId, signal),
      staleTime: 0,
    });
}

/** Reads again both lists a link is on: every supplier's products (a preferred mark may have moved) and the product's suppliers. */
async function refreshLists(queryClient: ReturnType<typeof useQueryClient>, productId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: supplierProductKeys.ofSuppliers }),
    queryClient.invalidateQueries({ queryKey: supplierProductKeys.ofProduct(productId) }),
  ]);
}

/**
 * A link saved from its form: a new one (the supplier, the form's Idempotency-Key, the body),
 * or a change of terms at the version the form loaded (If-Match).
 */
export type SaveSupplierProduct =
  { link: undefined; supplierId: string; key: IdempotencyHeader; body: CreateSupplierProductBody } | { link: SupplierProduct; body: UpdateSupplierProductBody };

const productOf = (save: SaveSupplierProduct) => (save.link ? save.link.productId : save.body.productId);

/**
 * POST /suppliers/{id}/products (201; 409 when the supplier already sells the product or its
 * code is the supplier's for another; 404 an unknown product) or PATCH
 * /suppliers/{id}/products/{productId} with `If-Match` (412 when someone changed the link
 * since: nothing is written). Both lists read again afterwards, and after a 412 or a 404.
 */
export function useSaveSupplierProduct({ onSuccess }: MutationCallbacks<SupplierProduct, SaveSupplierProduct> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (save: SaveSupplierProduct) =>
      save.link
        ? unwrap(
            api.PATCH('/suppliers/{id}/products/{productId}', {
              params: { path: { id: save.link.supplierId, productId: save.link.productId }, header: { 'If-Match': ifMatchOf(save.link.version) } },
              body: save.body,
            }),
          )
        : unwrap(api.POST('/suppliers/{id}/products', { params: { path: { id: save.supplierId }, header: save.key }, body: save.body })),
    onSuccess: async (saved, save) => {
      queryClient.setQueryData(supplierProductKeys.link(saved.supplierId, saved.productId), saved);
      onSuccess?.(saved, save);
      await refreshLists(queryClient, saved.productId);
    },
    onError: (error, save) => (isProblem(error, 412) || isProblem(error, 404) ? refreshLists(queryClient, productOf(save)) : undefined),
  });
}

/**
 * DELETE /suppliers/{id}/products/{productId} with `If-Match` the version listed (412 when
 * someone changed it since: nothing is removed). Both lists read again afterwards, and after a
 * 412 or a 404 (removed meanwhile).
 */
export function useDeleteSupplierProduct({ onSuccess }: MutationCallbacks<void, SupplierProduct> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (link: SupplierProduct) => {
      await unwrap(
        api.DELETE('/suppliers/{id}/products/{productId}', {
          params: { path: { id: link.supplierId, productId: link.productId }, header: { 'If-Match': ifMatchOf(link.version) } },
        }),
      );
    },
    onSuccess: async (_, link) => {
      onSuccess?.(undefined, link);
      queryClient.removeQueries({ queryKey: supplierProductKeys.link(link.supplierId, link.productId) });
      await refreshLists(queryClient, link.productId);
    },
    onError: (error, link) => (isProblem(error, 412) || isProblem(error, 404) ? refreshLists(queryClient, link.productId) : undefined),
  });
}
