import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { api, unwrap, type IdempotencyHeader, type MutationCallbacks } from './client';

type DisableTotpBody = components['schemas']['DisableTotpRequest'];

/** My account's query keys: my live sessions, which a new password or a second factor changes too. */
export const accountKeys = {
  sessions: ['account', 'sessions'] as const,
};

/** GET /auth/sessions: my live sessions, newest first. */
export function useSessions() {
  return useQuery({ queryKey: accountKeys.sessions, queryFn: ({ signal }) => unwrap(api.GET('/auth/sessions', { signal })) });
}

function useRefreshSessions(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
}

/**
 * POST /auth/sessions/{id}/revoke with the open dialog's Idempotency-Key. The sessions are read
 * again BEFORE `onSuccess`: the dialog closes onto the list without the session.
 */
export function useRevokeSession(id: string, { onSuccess }: MutationCallbacks<void, IdempotencyHeader> = {}) {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: async (key: IdempotencyHeader) => {
      await unwrap(api.POST('/auth/sessions/{id}/revoke', { params: { path: { id }, header: key } }));
    },
    onSuccess: async (_, key) => {
      await refresh();
      onSuccess?.(undefined, key);
    },
  });
}

const revokeOthers = () => unwrap(api.POST('/auth/sessions/revoke-others'));

/** POST /auth/sessions/revoke-others: every session but this one ended; the sessions read again afterwards. */
export function useRevokeOtherSessions({ onSuccess }: MutationCallbacks<Awaited<ReturnType<typeof revokeOthers>>, void> = {}) {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: revokeOthers,
    onSuccess: async (answer) => {
      onSuccess?.(answer, undefined);
      await refresh();
    },
  });
}

/** The current password and the new one. */
export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/** POST /auth/change-password: every other session ends (this one goes on with fresh cookies), so the sessions are read again afterwards. */
export function useChangePassword({ onSuccess }: MutationCallbacks<void, PasswordChange> = {}) {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: async (change: PasswordChange) => {
      await unwrap(api.POST('/auth/change-password', { body: change }));
    },
    onSuccess: async (_, change) => {
      onSuccess?.(undefined, change);
      await refresh();
    },
  });
}

const startTotp = (password: string) => unwrap(api.POST('/auth/mfa/totp', { body: { password } }));

/** POST /auth/mfa/totp with the password: the secret and its QR code (a 409 with the API's reason when the second factor is already on). */
export function useStartTotp({ onSuccess }: MutationCallbacks<Awaited<ReturnType<typeof startTotp>>, string> = {}) {
  return useMutation({ mutationFn: startTotp, onSuccess: (answer, password) => onSuccess?.(answer, password) });
}

const confirmTotp = (code: string) => unwrap(api.POST('/auth/mfa/totp/confirm', { body: { code } }));

/** POST /auth/mfa/totp/confirm with the authenticator's code: the recovery codes; the sessions read again afterwards. */
export function useConfirmTotp({ onSuccess }: MutationCallbacks<Awaited<ReturnType<typeof confirmTotp>>, string> = {}) {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: confirmTotp,
    onSuccess: async (answer, code) => {
      onSuccess?.(answer, code);
      await refresh();
    },
  });
}

/** DELETE /auth/mfa/totp with a code or a recovery code; the sessions read again afterwards. */
export function useDisableTotp({ onSuccess }: MutationCallbacks<void, DisableTotpBody> = {}) {
  const refresh = useRefreshSessions();
  return useMutation({
    mutationFn: async (body: DisableTotpBody) => {
      await unwrap(api.DELETE('/auth/mfa/totp', { body }));
    },
    onSuccess: async (_, body) => {
      onSuccess?.(undefined, body);
      await refresh();
    },
  });
}

const readMyData = () => unwrap(api.GET('/auth/me/data'));

/**
 * GET /auth/me/data, handed to `save` (which writes it as a file and names it). A mutation, not
 * a query: it runs when asked, its answer (`no-store`) is not kept in the cache, and a 429
 * after the fifth in an hour is the mutation's error, with its wait.
 */
export function useDownloadMyData<T>(save: (data: Awaited<ReturnType<typeof readMyData>>) => T) {
  return useMutation({ mutationFn: async () => save(await readMyData()) });
}
