import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../lib/config';
import { clearedSessionCookies, sessionCookies } from '../../lib/http/cookies';

const ACCESS = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1In0.c2ln';
const REFRESH = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJyIn0.c2ln';

function withEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

describe('session cookies', () => {
  afterEach(() => {
    withEnv({ PATH_PREFIX: '', COOKIE_SAME_SITE: 'Strict', COOKIE_DOMAIN: undefined });
  });

  it('sets a browser-session refresh cookie (no Max-Age) when no refresh lifetime is given', () => {
    const cookies = sessionCookies({ accessToken: ACCESS, refreshToken: REFRESH, accessMaxAge: 900, refreshMaxAge: undefined });

    expect(cookies).toEqual([
      `accessToken=${ACCESS}; Max-Age=900; Path=/; HttpOnly; Secure; SameSite=Strict`,
      `refreshToken=${REFRESH}; Path=/auth; HttpOnly; Secure; SameSite=Strict`,
    ]);
  });

  it('sets a persistent refresh cookie when a refresh lifetime is given (remember me)', () => {
    const cookies = sessionCookies({ accessToken: ACCESS, refreshToken: REFRESH, accessMaxAge: 900, refreshMaxAge: 2_592_000 });

    expect(cookies).toEqual([
      `accessToken=${ACCESS}; Max-Age=900; Path=/; HttpOnly; Secure; SameSite=Strict`,
      `refreshToken=${REFRESH}; Max-Age=2592000; Path=/auth; HttpOnly; Secure; SameSite=Strict`,
    ]);
  });

  it('puts the stage prefix in front of both paths', () => {
    withEnv({ PATH_PREFIX: '/prod' });

    const cookies = sessionCookies({ accessToken: ACCESS, refreshToken: REFRESH, accessMaxAge: 900, refreshMaxAge: undefined });

    expect(cookies).toEqual([
      `accessToken=${ACCESS}; Max-Age=900; Path=/prod; HttpOnly; Secure; SameSite=Strict`,
      `refreshToken=${REFRESH}; Path=/prod/auth; HttpOnly; Secure; SameSite=Strict`,
    ]);
  });

  it('uses the configured SameSite and cookie domain', () => {
    withEnv({ COOKIE_SAME_SITE: 'Lax', COOKIE_DOMAIN: 'api.example.com' });

    const cookies = sessionCookies({ accessToken: ACCESS, refreshToken: REFRESH, accessMaxAge: 600, refreshMaxAge: 3600 });

    expect(cookies).toEqual([
      `accessToken=${ACCESS}; Max-Age=600; Domain=api.example.com; Path=/; HttpOnly; Secure; SameSite=Lax`,
      `refreshToken=${REFRESH}; Max-Age=3600; Domain=api.example.com; Path=/auth; HttpOnly; Secure; SameSite=Lax`,
    ]);
  });
});

describe('cleared session cookies', () => {
  afterEach(() => {
    withEnv({ PATH_PREFIX: '', COOKIE_DOMAIN: undefined });
  });

  it('sends both cookies back empty with Max-Age=0 and the same attributes', () => {
    expect(clearedSessionCookies()).toEqual([
      'accessToken=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict',
      'refreshToken=; Max-Age=0; Path=/auth; HttpOnly; Secure; SameSite=Strict',
    ]);
  });

  it('clears them on the prefixed paths and the configured domain', () => {
    withEnv({ PATH_PREFIX: '/prod', COOKIE_DOMAIN: 'api.example.com' });

    expect(clearedSessionCookies()).toEqual([
      'accessToken=; Max-Age=0; Domain=api.example.com; Path=/prod; HttpOnly; Secure; SameSite=Strict',
      'refreshToken=; Max-Age=0; Domain=api.example.com; Path=/prod/auth; HttpOnly; Secure; SameSite=Strict',
    ]);
  });
});
