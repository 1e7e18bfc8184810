import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';
import { inventoryKeys } from './inventory';
import { isProblem } from './problems';

/** The console's form moves one product: its answer is one transfer (`items`, several products, answers a batch). */
export type Transfer = Extract<components['schemas']['CreateTransferResponse'], { productId: string }>;
export type CreateTransfer = components['schemas']['CreateTransferRequest'] & { productId: string; quantity: number };

/** The answer to a transfer of one product (the batch shape answers only `items`, which the console does not send). */
async function oneTransfer(answer: Promise<components['schemas']['CreateTransferResponse']>): Promise<Transfer> {
  const transfer = await answer;
  if (!('productId' in transfer)) throw new Error('Expected the transfer of one product');
  return transfer;
}

/**
 * Transfers' query keys: a product's under its own (`inventoryKeys.product`), so that a
 * transfer, like a movement, refreshes the product's balances, history and transfers at once.
 */
export const transferKeys = {
  ofProduct: (productId: string) => [...inventoryKeys.product(productId), 'transfers'] as const,
  list: (productId: string, cursor: string | undefined) => [...transferKeys.ofProduct(productId), cursor ?? null] as const,
};

/** A short list: the product page shows the last few, with a pager for the rest. */
export const RECENT_TRANSFERS = 5;

/** GET /inventory/transfers?productId=…: the product's transfers, newest first, paged by `nextCursor`; the previous page stays shown while the next loads. */
export function useRecentTransfers(productId: string, cursor: string | undefined) {
  return useQuery({
    queryKey: transferKeys.list(productId, cursor),
    queryFn: ({ signal }) =>
      unwrap(api.GET('/inventory/transfers', { params: { query: { productId, limit: RECENT_TRANSFERS, ...(cursor ? { cursor } : {}) } }, signal })),
    placeholderData: keepPreviousData,
  });
}

/** A transfer to record, with the open form's Idempotency-Key. */
export interface RecordTransfer {
  key: IdempotencyHeader;
  body: CreateTransfer;
}

/**
 * POST /inventory/transfers. Afterwards the product's balances, history and transfers read
 * again, then the dashboard (each warehouse's totals moved). A 409 may mean the balance the
 * form showed is old: the source's balance reads again, so the form shows what is there now.
 */
export function useCreateTransfer({ onSuccess }: MutationCallbacks<Transfer, RecordTransfer> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, body }: RecordTransfer) => oneTransfer(unwrap(api.POST('/inventory/transfers', { params: { header: key }, body }))),
    onSuccess: async (transfer, recorded) => {
      onSuccess?.(transfer, recorded);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.product(transfer.productId) });
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.dashboard });
    },
    onError: (error, { body }) =>
      isProblem(error, 409) ? queryClient.invalidateQueries({ queryKey: inventoryKeys.balance(body.productId, body.fromWarehouseId) }) : undefined,
  });
}
