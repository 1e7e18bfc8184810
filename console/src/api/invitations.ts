import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, linkPage, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';

type Invitation = components['schemas']['ListInvitationsResponse'][number];
type CreatedInvitation = components['schemas']['Invitation'];

export const invitationKeys = {
  all: ['admin', 'invitations'] as const,
  list: (cursor: string | undefined) => [...invitationKeys.all, cursor ?? ''] as const,
};

/** GET /auth/invitations, the pending ones, one page (Link-header cursors). */
export function useInvitations(cursor: string | undefined) {
  return useQuery({
    queryKey: invitationKeys.list(cursor),
    queryFn: ({ signal }) => linkPage(api.GET('/auth/invitations', { params: { query: cursor ? { cursor } : {} }, signal })),
  });
}

/** An invitation to send: the address, and the Idempotency-Key of the open form. */
export interface Invite {
  email: string;
  key: IdempotencyHeader;
}

/** POST /auth/invitations; the invitations read again afterwards. */
export function useInvite({ onSuccess }: MutationCallbacks<CreatedInvitation, Invite> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ email, key }: Invite) => unwrap(api.POST('/auth/invitations', { params: { header: key }, body: { email } })),
    onSuccess: async (created, invite) => {
      onSuccess?.(created, invite);
      await queryClient.invalidateQueries({ queryKey: invitationKeys.all });
    },
  });
}

/** DELETE /auth/invitations/{id}; the invitations read again afterwards. */
export function useWithdrawInvitation(invitation: Invitation, { onSuccess }: MutationCallbacks<void, void> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await unwrap(api.DELETE('/auth/invitations/{id}', { params: { path: { id: invitation.id } } }));
    },
    onSuccess: async () => {
      onSuccess?.(undefined, undefined);
      await queryClient.invalidateQueries({ queryKey: invitationKeys.all });
    },
  });
}
