import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { resetKeys } from '../../lib/auth/keys';
import { ACCESS_TYPE, REFRESH_TYPE, signAccessToken, signRefreshToken, verifyAccessToken, verifyRefreshToken } from '../../lib/auth/tokens';
import { resetConfig } from '../../lib/config';
import { Unauthorized } from '../../lib/errors';
import { settings } from '../../lib/settings';
import { TEST_KID, testPublicJwk } from '../support/env';
import { AUDIENCE, hmacToken, ISSUER, mintToken, nowSeconds, otherKeyPair, publicKeyAsHmacSecrets, unsignedToken, validClaims } from '../support/tokens';

const subject = () => ({ userId: randomUUID(), tenantId: randomUUID(), sessionId: randomUUID() });

/** Every refusal must be the 401 class, whatever the client sent. */
async function expectRefused(verification: Promise<unknown>, message = 'The token is not valid'): Promise<void> {
  const error: unknown = await verification.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Unauthorized);
  expect(error).toMatchObject({ status: 401, message });
}

describe('access and refresh tokens', () => {
  it('signs an access token that verifies back to its claims', async () => {
    const who = subject();
    const now = nowSeconds();

    const signed = await signAccessToken(who, now);
    const claims = await verifyAccessToken(signed.token);

    expect(claims).toEqual({
      sub: who.userId,
      tenantId: who.tenantId,
      sessionId: who.sessionId,
      jti: signed.jti,
      iat: now,
      exp: now + settings.accessTokenSeconds,
    });
    expect(signed.exp).toBe(now + settings.accessTokenSeconds);
    expect(signed.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(decodeProtectedHeader(signed.token)).toEqual({ alg: 'ES256', typ: ACCESS_TYPE, kid: TEST_KID });
    expect(decodeJwt(signed.token)).toEqual({ ...claims, iss: ISSUER, aud: AUDIENCE });
  });

  it('signs a refresh token that expires with its session', async () => {
    const who = subject();
    const now = nowSeconds();
    const sessionExpiresAt = now + 43_200;

    const signed = await signRefreshToken(who, now, sessionExpiresAt);
    const claims = await verifyRefreshToken(signed.token);

    expect(claims).toEqual({ sub: who.userId, tenantId: who.tenantId, sessionId: who.sessionId, jti: signed.jti, iat: now, exp: sessionExpiresAt });
    expect(signed.exp).toBe(sessionExpiresAt);
    expect(decodeProtectedHeader(signed.token)).toEqual({ alg: 'ES256', typ: REFRESH_TYPE, kid: TEST_KID });
  });

  it('gives every token its own jti', async () => {
    const who = subject();
    const now = nowSeconds();

    const first = await signAccessToken(who, now);
    const second = await signAccessToken(who, now);

    expect(first.jti).not.toBe(second.jti);
  });

  it('refuses an access token presented as a refresh token', async () => {
    const { token } = await signAccessToken(subject(), nowSeconds());

    await expectRefused(verifyRefreshToken(token));
  });

  it('refuses a refresh token presented as an access token', async () => {
    const now = nowSeconds();
    const { token } = await signRefreshToken(subject(), now, now + 43_200);

    await expectRefused(verifyAccessToken(token));
  });

  it('accepts a well-formed token minted by the test helper (the baseline of the forgeries below)', async () => {
    const claims = validClaims();

    const verified = await verifyAccessToken(await mintToken({ claims }));

    expect(verified).toEqual({ sub: claims.sub, tenantId: claims.tenantId, sessionId: claims.sessionId, jti: claims.jti, iat: claims.iat, exp: claims.exp });
  });
});

describe('forged and defective tokens', () => {
  it('refuses an unsecured token (alg none)', async () => {
    await expectRefused(verifyAccessToken(unsignedToken()));
  });

  it.each(publicKeyAsHmacSecrets())('refuses an HS256 token keyed with the public key ($name): algorithm confusion', async ({ secret }) => {
    await expectRefused(verifyAccessToken(await hmacToken(secret)));
  });

  it('refuses a token signed by another ES256 key under the same kid', async () => {
    const attacker = await otherKeyPair(TEST_KID);

    await expectRefused(verifyAccessToken(await mintToken({ key: attacker.privateKey })));
  });

  it('refuses a token signed by another key under an unknown kid', async () => {
    const attacker = await otherKeyPair('attacker-key');

    await expectRefused(verifyAccessToken(await mintToken({ key: attacker.privateKey, header: { kid: 'attacker-key' } })));
  });

  it('refuses a token that carries its own verification key in the header (embedded jwk)', async () => {
    const attacker = await otherKeyPair('attacker-key');

    await expectRefused(verifyAccessToken(await mintToken({ key: attacker.privateKey, header: { kid: 'attacker-key', jwk: attacker.publicJwk } })));
  });

  it('refuses a token of the right key under an unknown kid', async () => {
    await expectRefused(verifyAccessToken(await mintToken({ header: { kid: 'no-such-key' } })));
  });

  it.each([
    ['JWT', 'a generic JWT'],
    ['refresh+jwt', 'the refresh type'],
    [undefined, 'no typ at all'],
  ])('refuses an access token whose typ is %s (%s)', async (typ, _label) => {
    await expectRefused(verifyAccessToken(await mintToken({ header: { typ } })));
  });

  it.each(['sub', 'tenantId', 'sessionId', 'jti', 'iat', 'exp'] as const)('refuses a token without %s', async (claim) => {
    const token = await mintToken({ claims: { [claim]: undefined } });

    await expectRefused(verifyAccessToken(token));
  });

  it.each(['tenantId', 'sessionId', 'jti', 'sub'] as const)('refuses a token whose %s is an empty string', async (claim) => {
    const token = await mintToken({ claims: { [claim]: '' } });

    await expectRefused(verifyAccessToken(token), 'The token is missing required claims');
  });

  it('refuses a token whose tenantId is not a string', async () => {
    const token = await mintToken({ claims: { tenantId: 42 as unknown as string } });

    await expectRefused(verifyAccessToken(token), 'The token is missing required claims');
  });

  it('refuses a token of another issuer', async () => {
    await expectRefused(verifyAccessToken(await mintToken({ claims: { iss: 'https://evil.example.com' } })));
  });

  it('refuses a token for another audience', async () => {
    await expectRefused(verifyAccessToken(await mintToken({ claims: { aud: 'another-api' } })));
  });

  it('refuses an expired token and says so', async () => {
    const now = nowSeconds();
    const token = await mintToken({ claims: { iat: now - 1000, exp: now - 100 } });

    await expectRefused(verifyAccessToken(token), 'The token has expired');
  });

  it('refuses a token that is not valid yet (nbf in the future)', async () => {
    const token = await mintToken({ claims: { nbf: nowSeconds() + 600 } as Record<string, number> });

    await expectRefused(verifyAccessToken(token));
  });

  it('refuses a token whose payload was altered after signing', async () => {
    const [header, , signature] = (await mintToken()).split('.');
    const forgedPayload = Buffer.from(JSON.stringify(validClaims())).toString('base64url');

    await expectRefused(verifyAccessToken(`${header}.${forgedPayload}.${signature}`));
  });

  it.each([
    ['', 'empty'],
    ['abc', 'one word'],
    ['a.b.c', 'three dots-separated words'],
    [randomBytes(96).toString('base64'), 'random base64'],
    [
      `${randomBytes(24).toString('base64url')}.${randomBytes(48).toString('base64url')}.${randomBytes(64).toString('base64url')}`,
      'three random base64url segments',
    ],
    ['eyJhbGciOiJFUzI1NiJ9..', 'a header and nothing else'],
    ['Bearer abc.def.ghi', 'a bearer prefix'],
  ])('refuses the garbage string %j (%s) with Unauthorized', async (garbage) => {
    await expectRefused(verifyAccessToken(garbage));
    await expectRefused(verifyRefreshToken(garbage));
  });
});

describe('key rotation', () => {
  const originalEnv = { JWT_PUBLIC_KEYS: process.env.JWT_PUBLIC_KEYS, JWT_SIGNING_KEY: process.env.JWT_SIGNING_KEY };

  const useKeys = (publicKeys: object[], signingJwk?: object) => {
    process.env.JWT_PUBLIC_KEYS = JSON.stringify({ keys: publicKeys });
    if (signingJwk) process.env.JWT_SIGNING_KEY = JSON.stringify(signingJwk);
    resetConfig();
    resetKeys();
  };

  afterEach(() => {
    Object.assign(process.env, originalEnv);
    resetConfig();
    resetKeys();
  });

  it('still verifies a token of the previous key while its public key is published, and signs with the new one', async () => {
    const previous = await otherKeyPair('key-2025');
    const oldToken = await mintToken({ key: previous.privateKey, header: { kid: 'key-2025' } });
    const next = await otherKeyPair('key-2026');
    useKeys([previous.publicJwk, next.publicJwk], next.privateJwk);

    const oldClaims = await verifyAccessToken(oldToken);
    const fresh = await signAccessToken(subject(), nowSeconds());

    expect(oldClaims.jti).toBe(decodeJwt(oldToken).jti);
    expect(decodeProtectedHeader(fresh.token).kid).toBe('key-2026');
    await expect(verifyAccessToken(fresh.token)).resolves.toMatchObject({ jti: fresh.jti });
  });

  it('refuses a token of a key that was dropped from the published keys', async () => {
    const previous = await otherKeyPair('key-2025');
    const oldToken = await mintToken({ key: previous.privateKey, header: { kid: 'key-2025' } });
    useKeys([testPublicJwk]);

    await expectRefused(verifyAccessToken(oldToken));
  });
});
