import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { deliveriesQuery, type CreateEndpointBody, type DeliveryFilters, type UpdateEndpointBody } from '../pages/webhooks/webhooks';
import { api, linkPage, unwrap, type MutationCallbacks } from './client';

type WebhookEndpoint = components['schemas']['UpdateWebhookEndpointResponse'];
type EndpointWithSecret = components['schemas']['CreateWebhookEndpointResponse'];
type Delivery = components['schemas']['TestWebhookEndpointResponse'];

/** The webhooks' query keys: the endpoints' list (`list`) and each endpoint's log (`<id>`, `deliveries`). */
export const webhookKeys = {
  all: ['admin', 'webhook-endpoints'] as const,
  lists: () => [...webhookKeys.all, 'list'] as const,
  list: (cursor: string | undefined) => [...webhookKeys.lists(), cursor ?? ''] as const,
  deliveries: (endpointId: string) => [...webhookKeys.all, endpointId, 'deliveries'] as const,
  deliveryLog: (endpointId: string, filters: DeliveryFilters) => [...webhookKeys.deliveries(endpointId), filters] as const,
};

/** While a delivery shown waits for its next attempt, the log is read again this often. */
const PENDING_REFRESH_MS = 5_000;

/** GET /webhook-endpoints, one page (Link-header cursors, tenant administrators). */
export function useWebhookEndpoints(cursor: string | undefined) {
  return useQuery({
    queryKey: webhookKeys.list(cursor),
    queryFn: ({ signal }) => linkPage(api.GET('/webhook-endpoints', { params: { query: cursor ? { cursor } : {} }, signal })),
  });
}

/** The endpoints' list read again (after a register, an edit, a rotation or a delete). */
export function useRefreshWebhookEndpoints(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.lists() });
}

/**
 * GET /webhook-endpoints/{id}/deliveries, newest first, filtered, a page at a time ("load
 * more" follows the `Link` header's cursor); read again every few seconds while a delivery
 * shown waits for its next attempt.
 */
export function useDeliveryLog(endpointId: string, filters: DeliveryFilters) {
  return useInfiniteQuery({
    queryKey: webhookKeys.deliveryLog(endpointId, filters),
    queryFn: ({ pageParam, signal }) =>
      linkPage(api.GET('/webhook-endpoints/{id}/deliveries', { params: { path: { id: endpointId }, query: deliveriesQuery(filters, pageParam) }, signal })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.items.some((delivery) => delivery.status === 'pending')) ? PENDING_REFRESH_MS : false,
  });
}

/**
 * POST /webhook-endpoints. The route takes no Idempotency-Key (a retry registers a second
 * endpoint): the caller disables its button while it runs. The answer is kept in no cache
 * (gcTime 0), so the secret lives only in the dialog that shows it.
 */
export function useCreateWebhookEndpoint({ onSuccess }: MutationCallbacks<EndpointWithSecret, CreateEndpointBody> = {}) {
  return useMutation({
    mutationFn: (body: CreateEndpointBody) => unwrap(api.POST('/webhook-endpoints', { body })),
    gcTime: 0,
    onSuccess: (created, body) => onSuccess?.(created, body),
  });
}

/** PATCH /webhook-endpoints/{id} with what changed. */
export function useUpdateWebhookEndpoint(id: string, { onSuccess }: MutationCallbacks<WebhookEndpoint, UpdateEndpointBody> = {}) {
  return useMutation({
    mutationFn: (body: UpdateEndpointBody) => unwrap(api.PATCH('/webhook-endpoints/{id}', { params: { path: { id } }, body })),
    onSuccess: (saved, body) => onSuccess?.(saved, body),
  });
}

/** POST /webhook-endpoints/{id}/rotate-secret: the call a confirmation makes (ConfirmCall keeps the new secret in no cache). */
export const rotateWebhookSecret = (id: string) => unwrap(api.POST('/webhook-endpoints/{id}/rotate-secret', { params: { path: { id } } }));

/** DELETE /webhook-endpoints/{id}: the call a confirmation makes. */
export const deleteWebhookEndpoint = (id: string) => unwrap(api.DELETE('/webhook-endpoints/{id}', { params: { path: { id } } }));

/**
 * POST /webhook-endpoints/{id}/test: a signed `ping` now; the endpoint's log read again after.
 * Not idempotent (each is one more request to the receiver): the caller disables its button
 * while it runs.
 */
export function useSendTestPing({ onSuccess }: MutationCallbacks<Delivery, { id: string; url: string }> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpoint: { id: string; url: string }) => unwrap(api.POST('/webhook-endpoints/{id}/test', { params: { path: { id: endpoint.id } } })),
    onSuccess: (delivery, endpoint) => {
      onSuccess?.(delivery, endpoint);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) });
    },
  });
}

/** POST /webhook-deliveries/{id}/retry: the delivery sent again now; its endpoint's log read again after. */
export function useRetryDelivery({ onSuccess }: MutationCallbacks<Delivery, Delivery> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (delivery: Delivery) => unwrap(api.POST('/webhook-deliveries/{id}/retry', { params: { path: { id: delivery.id } } })),
    onSuccess: (sent, delivery) => {
      onSuccess?.(sent, delivery);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(sent.endpointId) });
    },
  });
}
