import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { authKeys } from '../api/auth';
import { whenSessionExpires } from '../api/client';
import { ROUTES } from './routes';

/** The sign-in address that comes back to `path` afterwards. */
export const signInPath = (path: string) => (path === '/' || path.startsWith('/sign-in') ? '/sign-in' : `/sign-in?next=${encodeURIComponent(path)}`);

/** Where to go after signing in: the `next` of the address, if it is a page of the console. */
export function nextPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/**
 * When the typed client's refresh fails (the session ended: signed out elsewhere, revoked,
 * expired), forget everything cached and go to sign-in, keeping the page to come back to.
 */
export function useSessionExpiry(): void {
  const queryClient = useQueryClient();
  const [location, navigate] = useLocation();
  useEffect(() => {
    whenSessionExpires(() => {
      // A visitor on a public page (sign-in itself, a reset link) has no session to lose.
      if (ROUTES.some((route) => route.access === 'public' && route.path === location)) return;
      queryClient.clear();
      queryClient.setQueryData(authKeys.me, null);
      navigate(signInPath(location + window.location.search), { replace: true });
    });
  }, [queryClient, location, navigate]);
}
