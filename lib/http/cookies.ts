import { stringifySetCookie, type SetCookie } from 'cookie';
import type { IssuedTokens } from '../auth/tokens';
import { config } from '../config';

export const ACCESS_COOKIE = 'accessToken';
export const REFRESH_COOKIE = 'refreshToken';
/** A login waiting for its second factor: only POST /auth/mfa/verify receives it. */
export const CHALLENGE_COOKIE = 'mfaChallenge';

const challengePath = () => `${config().PATH_PREFIX}/auth/mfa/verify`;

/** The challenge cookie of a login that needs its second factor: HttpOnly, for its 5 minutes, to the verify route alone. */
export const challengeCookie = (token: string, maxAge: number): string =>
  stringifySetCookie({ name: CHALLENGE_COOKIE, value: token, ...base(), path: challengePath(), maxAge });

/** The challenge cookie cleared (the login completed). */
export const clearedChallengeCookie = (): string => stringifySetCookie({ name: CHALLENGE_COOKIE, value: '', ...base(), path: challengePath(), maxAge: 0 });

function base(): Omit<SetCookie, 'name' | 'value'> {
  const { COOKIE_SAME_SITE, COOKIE_DOMAIN } = config();
  return {
    httpOnly: true,
    secure: true,
    sameSite: COOKIE_SAME_SITE.toLowerCase() as 'strict' | 'lax' | 'none',
    ...(COOKIE_DOMAIN ? { domain: COOKIE_DOMAIN } : {}),
  };
}

/** The refresh cookie only travels to the auth routes. */
function refreshPath(): string {
  return `${config().PATH_PREFIX}/auth`;
}

function accessPath(): string {
  return config().PATH_PREFIX || '/';
}

/** Set-Cookie values for a freshly issued pair (login, registration, refresh). */
export function sessionCookies(tokens: IssuedTokens): string[] {
  return [
    stringifySetCookie({ name: ACCESS_COOKIE, value: tokens.accessToken, ...base(), path: accessPath(), maxAge: tokens.accessMaxAge }),
    stringifySetCookie({
      name: REFRESH_COOKIE,
      value: tokens.refreshToken,
      ...base(),
      path: refreshPath(),
      ...(tokens.refreshMaxAge !== undefined ? { maxAge: tokens.refreshMaxAge } : {}),
    }),
  ];
}

/** Set-Cookie values that clear both cookies: empty, Max-Age=0, the same attributes. */
export function clearedSessionCookies(): string[] {
  return [
    stringifySetCookie({ name: ACCESS_COOKIE, value: '', ...base(), path: accessPath(), maxAge: 0 }),
    stringifySetCookie({ name: REFRESH_COOKIE, value: '', ...base(), path: refreshPath(), maxAge: 0 }),
  ];
}
