import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { useCallback } from 'react';
import { api, idempotencyKey, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';
import { inventoryKeys } from './inventory';

/** A stock count (inventário) as the API answers it: its status, scope and totals (money in reais). */
export type Count = components['schemas']['CreateCountResponse'];
/** A count with a page of its lines. */
export type CountDetail = components['schemas']['GetCountResponse'];
/** A product's line: what was counted, the system's quantity when it was, the difference and its value. */
export type CountLine = components['schemas']['SetCountLineResponse'];
/** A product in the count's scope nobody counted yet, with its quantity in the warehouse now. */
export type UncountedProduct = components['schemas']['ListUncountedResponse']['items'][number];
export type CountStatus = Count['status'];
/** What the close does to a product in scope nobody counted: leave its stock, or count it as 0. */
export type UncountedRule = components['schemas']['CloseCountRequest']['uncounted'];
export type CreateCount = components['schemas']['CreateCountRequest'];
/** The lines' order: by product id, or the largest value of a difference first (the review). */
export type LineOrder = 'product' | 'difference';
/** What a scan names: a barcode, or a SKU. */
export type ScanCode = { gtin: string } | { sku: string };

/** The lists' filters, each left out when not chosen. */
export interface CountFilters {
  status?: CountStatus;
  warehouseId?: string;
}

/**
 * Counts' query keys, under inventory's (`['inventory', 'counts', …]`): a new warehouse or
 * product reads them again with the rest, and a close, which moves stock, reads everything of
 * inventory again. Each count's own queries (its header, its pages of lines, its uncounted
 * products) are under `count(id)`, so a scan or a typed quantity refreshes them at once.
 */
export const countKeys = {
  all: [...inventoryKeys.all, 'counts'] as const,
  lists: () => [...countKeys.all, 'list'] as const,
  list: (filters: CountFilters, cursor: string | undefined) => [...countKeys.lists(), filters, cursor ?? null] as const,
  count: (id: string) => [...countKeys.all, 'count', id] as const,
  head: (id: string) => [...countKeys.count(id), 'head'] as const,
  lines: (id: string, order: LineOrder, cursor: string | undefined) => [...countKeys.count(id), 'lines', order, cursor ?? null] as const,
  uncounted: (id: string) => [...countKeys.count(id), 'uncounted'] as const,
  /** The scans and typed quantities of a count (a mutation key: how many are still being sent). */
  writes: (id: string) => ['count-writes', id] as const,
};

/** A page of counts; the open ones are few (the API reads them from a short list). */
export const COUNTS_PAGE = 20;
/** A page of a count's lines in the review. */
export const LINES_PAGE = 50;
/** A page of the products nobody counted yet. */
export const UNCOUNTED_PAGE = 50;
/** How often a CLOSING count is read again until the background ends it. */
const CLOSING_POLL_MS = 2_000;

/** GET /inventory/counts: newest first, of a status and/or a warehouse, paged by `nextCursor`; the previous page stays shown while the next loads. */
export function useCounts(filters: CountFilters, cursor: string | undefined, limit = COUNTS_PAGE) {
  return useQuery({
    queryKey: countKeys.list(filters, cursor),
    queryFn: ({ signal }) =>
      unwrap(
        api.GET('/inventory/counts', {
          params: {
            query: {
              limit,
              ...(filters.status ? { status: filters.status } : {}),
              ...(filters.warehouseId ? { warehouseId: filters.warehouseId } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

const readCount = (id: string, order: LineOrder, limit: number, cursor: string | undefined, signal: AbortSignal) =>
  unwrap(api.GET('/inventory/counts/{id}', { params: { path: { id }, query: { order, limit, ...(cursor ? { cursor } : {}) } }, signal }));

/**
 * The count itself (GET /inventory/counts/{id} with a single line): its status, warehouse,
 * note and totals. While it is CLOSING (a large close ending in the background) it is read
 * again every 2 seconds until it is CLOSED.
 */
export function useCount(id: string) {
  return useQuery({
    queryKey: countKeys.head(id),
    queryFn: async ({ signal }) => {
      const { lines: _lines, nextCursor: _next, ...count } = await readCount(id, 'product', 1, undefined, signal);
      return count satisfies Count;
    },
    refetchInterval: (query) => (query.state.data?.status === 'CLOSING' ? CLOSING_POLL_MS : false),
  });
}

/** A page of the count's lines with its totals, in `order` (`difference`: the largest value first), paged by `nextCursor`. */
export function useCountLines(id: string, order: LineOrder, cursor: string | undefined) {
  return useQuery({
    queryKey: countKeys.lines(id, order, cursor),
    queryFn: ({ signal }) => readCount(id, order, LINES_PAGE, cursor, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /inventory/counts/{id}/uncounted, page after page ("show more"): a page may hold fewer
 * products than asked, even none, while there are more (`nextCursor` not null).
 */
export function useUncounted(id: string) {
  return useInfiniteQuery({
    queryKey: countKeys.uncounted(id),
    queryFn: ({ signal, pageParam }) =>
      unwrap(
        api.GET('/inventory/counts/{id}/uncounted', {
          params: { path: { id }, query: { limit: UNCOUNTED_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } },
          signal,
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** A count to open, with the open form's Idempotency-Key. */
export interface StartCount {
  key: IdempotencyHeader;
  body: CreateCount;
}

/**
 * POST /inventory/counts (201, OPEN). A warehouse (or a product of it) with a count already
 * open answers 409. The lists read again afterwards, and after a 409 (the open one may be new).
 */
export function useStartCount({ onSuccess }: MutationCallbacks<Count, StartCount> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, body }: StartCount) => unwrap(api.POST('/inventory/counts', { params: { header: key }, body })),
    onSuccess: async (count, started) => {
      queryClient.setQueryData(countKeys.head(count.id), count);
      onSuccess?.(count, started);
      await queryClient.invalidateQueries({ queryKey: countKeys.lists() });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: countKeys.lists() }),
  });
}

/** A scan: the code read, and how many units it adds (1 when left out; -1 takes one back, an undo). */
export interface Scan {
  code: ScanCode;
  quantity?: number;
}

/** A mutation's callbacks for every call, failures included (a scanner's scans overlap: each one's outcome is told). */
interface ScanCallbacks {
  onSuccess?: (line: CountLine, scan: Scan) => unknown;
  onError?: (error: unknown, scan: Scan) => unknown;
}

/**
 * POST /inventory/counts/{id}/scans: adds `quantity` (default 1) to the line of the product
 * the code names, answering the line with its running count; 404 (its detail names the code)
 * when no product has it. A scanner types faster than the API answers: the scans of a count
 * run one after another (a mutation scope), so each answer is the line after that scan and the
 * last one answered is the last one scanned. The count's queries read again afterwards.
 */
export function useScan(countId: string, { onSuccess, onError }: ScanCallbacks = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: countKeys.writes(countId),
    scope: { id: `count-writes-${countId}` },
    mutationFn: ({ code, quantity }: Scan) =>
      unwrap(
        api.POST('/inventory/counts/{id}/scans', {
          // Each scan its own key: were it sent again (a lost answer), it would count once.
          params: { path: { id: countId }, header: idempotencyKey() },
          body: { ...code, ...(quantity === undefined ? {} : { quantity }) },
        }),
      ),
    onSuccess: async (line, scan) => {
      onSuccess?.(line, scan);
      await queryClient.invalidateQueries({ queryKey: countKeys.count(countId) });
    },
    onError: (error, scan) => onError?.(error, scan),
  });
}

/** A product's counted quantity, typed. */
export interface SetLine {
  productId: string;
  counted: number;
}

/**
 * PUT /inventory/counts/{id}/lines/{productId}: sets what was counted of a product (the
 * system's quantity taken anew at this moment). In the same scope as the scans, so a quantity
 * typed after a scan is written after it. The count's queries read again afterwards.
 */
export function useSetCountLine(countId: string, { onSuccess }: MutationCallbacks<CountLine, SetLine> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: countKeys.writes(countId),
    scope: { id: `count-writes-${countId}` },
    mutationFn: ({ productId, counted }: SetLine) =>
      unwrap(api.PUT('/inventory/counts/{id}/lines/{productId}', { params: { path: { id: countId, productId } }, body: { counted } })),
    onSuccess: async (line, set) => {
      onSuccess?.(line, set);
      await queryClient.invalidateQueries({ queryKey: countKeys.count(countId) });
    },
  });
}

/**
 * POST /inventory/counts/{id}/close: each line's difference applied to the stock as an
 * adjustment. The answer is CLOSED, or CLOSING for a large count that ends in the background
 * (useCount then reads it again until CLOSED). The count is kept as answered, then everything
 * of inventory reads again: balances, histories, the dashboard and the counts.
 */
export function useCloseCount(countId: string, { onSuccess }: MutationCallbacks<Count, UncountedRule> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (uncounted: UncountedRule) => unwrap(api.POST('/inventory/counts/{id}/close', { params: { path: { id: countId } }, body: { uncounted } })),
    onSuccess: async (count, uncounted) => {
      queryClient.setQueryData(countKeys.head(countId), count);
      onSuccess?.(count, uncounted);
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
    },
    // Closing or cancelled meanwhile (409): the page shows the count as it is now.
    onError: () => queryClient.invalidateQueries({ queryKey: countKeys.count(countId) }),
  });
}

/** POST /inventory/counts/{id}/cancel: nothing is adjusted; the count is CANCELLED and its warehouse can be counted again. */
export function useCancelCount(countId: string, { onSuccess }: MutationCallbacks<Count, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/inventory/counts/{id}/cancel', { params: { path: { id: countId } } })),
    onSuccess: async (count) => {
      queryClient.setQueryData(countKeys.head(countId), count);
      onSuccess?.(count, undefined);
      await queryClient.invalidateQueries({ queryKey: countKeys.all });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: countKeys.count(countId) }),
  });
}

/**
 * After a close ended in the background (the count seen CLOSING, now CLOSED), everything of
 * inventory reads again: the balances read while it was closing were partial.
 */
export function useInvalidateAfterClose() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: inventoryKeys.all }), [queryClient]);
}
