import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, linkPage, unwrap, type MutationCallbacks } from './client';

type ApiKeyWithSecret = components['schemas']['CreateApiKeyResponse'];
type CreateApiKeyBody = components['schemas']['CreateApiKeyRequest'];

export const apiKeyKeys = {
  all: ['admin', 'api-keys'] as const,
  list: (cursor: string | undefined) => [...apiKeyKeys.all, cursor ?? ''] as const,
};

/** GET /api-keys, one page (Link-header cursors, tenant administrators). */
export function useApiKeys(cursor: string | undefined) {
  return useQuery({
    queryKey: apiKeyKeys.list(cursor),
    queryFn: ({ signal }) => linkPage(api.GET('/api-keys', { params: { query: cursor ? { cursor } : {} }, signal })),
  });
}

/** The keys' list read again (after a create, a roll or a revoke). */
export function useRefreshApiKeys(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
}

/**
 * POST /api-keys. No Idempotency-Key (the answer holds the secret, which the server does not
 * keep): the caller disables its button while it runs. The answer is kept in no cache
 * (gcTime 0), so the key's text lives only in the dialog that shows it.
 */
export function useCreateApiKey({ onSuccess }: MutationCallbacks<ApiKeyWithSecret, CreateApiKeyBody> = {}) {
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => unwrap(api.POST('/api-keys', { body })),
    gcTime: 0,
    onSuccess: (created, body) => onSuccess?.(created, body),
  });
}

/** POST /api-keys/{id}/roll: the hours the current secret keeps working; the new text kept in no cache either. */
export function useRollApiKey(id: string, { onSuccess }: MutationCallbacks<ApiKeyWithSecret, number> = {}) {
  return useMutation({
    mutationFn: (expiresInHours: number) => unwrap(api.POST('/api-keys/{id}/roll', { params: { path: { id } }, body: { expiresInHours } })),
    gcTime: 0,
    onSuccess: (rolled, hours) => onSuccess?.(rolled, hours),
  });
}

/** DELETE /api-keys/{id}: the call a confirmation makes (ConfirmCall keeps its answer in no cache). */
export const revokeApiKey = (id: string) => unwrap(api.DELETE('/api-keys/{id}', { params: { path: { id } } }));
