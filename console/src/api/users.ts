import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, linkPage, unwrap, type MutationCallbacks } from './client';

type User = components['schemas']['UpdateUserResponse'];
type Role = User['role'];

/** The users' query keys, under the administration's (`['admin']`, which a removal refreshes whole). */
export const userKeys = {
  admin: ['admin'] as const,
  all: ['admin', 'users'] as const,
  list: (cursor: string | undefined) => [...userKeys.all, cursor ?? ''] as const,
};

/** GET /users, one page (Link-header cursors); the first page's query is shared with the administration page's access check. */
export function useUsers(cursor: string | undefined) {
  return useQuery({
    queryKey: userKeys.list(cursor),
    queryFn: ({ signal }) => linkPage(api.GET('/users', { params: { query: cursor ? { cursor } : {} }, signal })),
  });
}

/** PATCH /users/{id} { role }; the users read again afterwards. */
export function useChangeRole(id: string, { onSuccess }: MutationCallbacks<User, Role> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (role: Role) => unwrap(api.PATCH('/users/{id}', { params: { path: { id } }, body: { role } })),
    onSuccess: async (user, role) => {
      onSuccess?.(user, role);
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

/** What an administrator does to another user, confirmed: remove the user, or reset the user's second factor. */
export type UserAction = 'remove' | 'resetMfa';

/** DELETE /users/{id} or DELETE /users/{id}/mfa; everything of the administration read again afterwards (the audit trail too). */
export function useUserAction(id: string, action: UserAction, { onSuccess }: MutationCallbacks<void, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      if (action === 'remove') await unwrap(api.DELETE('/users/{id}', { params: { path: { id } } }));
      else await unwrap(api.DELETE('/users/{id}/mfa', { params: { path: { id } } }));
    },
    onSuccess: async () => {
      onSuccess?.(undefined, undefined);
      await queryClient.invalidateQueries({ queryKey: userKeys.admin });
    },
  });
}
