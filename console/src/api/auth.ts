import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@backoffice/client';
import { isProblem } from './problems';
import { api, unwrap } from './client';

type LoginBody = components['schemas']['LoginRequest'];
type RegisterBody = components['schemas']['RegisterRequest'];
type SignUpBody = components['schemas']['CreateTenantRequest'];
type ResetBody = components['schemas']['ResetPasswordRequest'];

/** The signed-in user's query key: cleared to `null` on sign-out and when the session ends. */
export const authKeys = {
  me: ['me'] as const,
};

/** The signed-in user (GET /auth/me): undefined while unknown, null when nobody is signed in. */
export function useMe() {
  return useQuery({
    queryKey: authKeys.me,
    queryFn: async () => {
      try {
        return await unwrap(api.GET('/auth/me'));
      } catch (error) {
        if (isProblem(error, 401)) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The signed-in user read again (after a sign-in or a register); the answer, null when the cookies did not stick. */
export function useReloadMe(): () => Promise<unknown> {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: authKeys.me });
    return queryClient.getQueryData(authKeys.me);
  };
}

/** POST /auth/logout; whatever its answer, `onSettled` (forget everything cached, go to sign-in). */
export function useSignOut(onSettled: () => void) {
  return useMutation({ mutationFn: () => api.POST('/auth/logout'), onSettled });
}

const login = (body: LoginBody) => unwrap(api.POST('/auth/login', { body }));

/** POST /auth/login: `{ mfaRequired: true }` when a second factor is due, signed in otherwise. */
export function useLogin(onSuccess: (answer: Awaited<ReturnType<typeof login>>) => unknown) {
  return useMutation({ mutationFn: login, onSuccess });
}

/** POST /auth/mfa/verify: the login's second step, with the authenticator's code or a recovery code. */
export function useVerifySecondFactor(onSuccess: () => unknown) {
  return useMutation({
    mutationFn: (answer: { code: string } | { recoveryCode: string }) => unwrap(api.POST('/auth/mfa/verify', { body: answer })),
    onSuccess,
  });
}

/** POST /auth/register: an invitation's account, signed in at once. */
export function useRegister(onSuccess: () => unknown) {
  return useMutation({ mutationFn: (body: RegisterBody) => unwrap(api.POST('/auth/register', { body })), onSuccess });
}

/** POST /tenants: a new tenant, whose administrator is e-mailed the link that creates the account. */
export function useSignUp() {
  return useMutation({ mutationFn: (body: SignUpBody) => unwrap(api.POST('/tenants', { body })) });
}

/** POST /auth/forgot-password: a reset link e-mailed, if the address has an account (the answer is the same either way). */
export function useForgotPassword() {
  return useMutation({ mutationFn: (email: string) => unwrap(api.POST('/auth/forgot-password', { body: { email } })) });
}

/** POST /auth/reset-password: the e-mailed token and the new password. */
export function useResetPassword() {
  return useMutation({ mutationFn: (body: ResetBody) => unwrap(api.POST('/auth/reset-password', { body })) });
}
