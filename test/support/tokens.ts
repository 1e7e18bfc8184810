import { createPublicKey, randomUUID, type JsonWebKey } from 'node:crypto';
import { base64url, exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { ACCESS_TYPE } from '../../lib/auth/tokens';
import { settings } from '../../lib/settings';
import { TEST_KID, testPublicJwk, testSigningJwk } from './env';

/**
 * Hand-made tokens for the tests: well-formed ones signed with the test key, and every kind
 * of forgery or defect the verifier must refuse. Only the tests sign this way; the service
 * signs through `lib/auth/tokens.ts`.
 */

export const ISSUER = 'https://test.backoffice.dev';
export const AUDIENCE = 'backoffice-test';

export interface TokenClaimsInput {
  sub?: string;
  tenantId?: string;
  sessionId?: string;
  jti?: string;
  iat?: number;
  exp?: number;
  iss?: string;
  aud?: string;
}

export interface MintOptions {
  /** Claims to set; a key set to undefined is left out of the token. */
  claims?: TokenClaimsInput;
  /** Header overrides (`alg`, `typ`, `kid`, or any other parameter); undefined drops one. */
  header?: Record<string, unknown>;
  /** The signing key; the test signing key by default. */
  key?: CryptoKey | Uint8Array;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Claims of a valid access token, fresh for as long as the service's own (lib/settings.ts). */
export function validClaims(overrides: TokenClaimsInput = {}): Required<TokenClaimsInput> {
  const iat = nowSeconds();
  return {
    sub: randomUUID(),
    tenantId: randomUUID(),
    sessionId: randomUUID(),
    jti: randomUUID(),
    iat,
    exp: iat + settings.accessTokenSeconds,
    iss: ISSUER,
    aud: AUDIENCE,
    ...overrides,
  };
}

let testKey: Promise<CryptoKey> | undefined;

/** The private key the service signs with in tests (test/support/env.ts). */
export function testSigningKey(): Promise<CryptoKey> {
  testKey ??= importJWK(testSigningJwk, 'ES256') as Promise<CryptoKey>;
  return testKey;
}

/** A fresh ES256 key pair that the service does not know, with its public JWK. */
export async function otherKeyPair(kid: string): Promise<{ privateKey: CryptoKey; privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return {
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'ES256' },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' },
  };
}

/**
 * A signed token, by default a valid access token of the test key. `claims` entries that
 * are explicitly undefined are omitted, so "missing exp" is `{ claims: { exp: undefined } }`.
 */
export async function mintToken(options: MintOptions = {}): Promise<string> {
  const claims: Record<string, unknown> = { ...validClaims() };
  for (const [name, value] of Object.entries(options.claims ?? {})) claims[name] = value;
  for (const name of Object.keys(claims)) if (claims[name] === undefined) delete claims[name];

  const header: Record<string, unknown> = { alg: 'ES256', typ: ACCESS_TYPE, kid: TEST_KID };
  for (const [name, value] of Object.entries(options.header ?? {})) header[name] = value;
  for (const name of Object.keys(header)) if (header[name] === undefined) delete header[name];

  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(options.key ?? (await testSigningKey()));
}

/** An unsecured JWT (`alg: none`, empty signature), RFC 7519 section 6. */
export function unsignedToken(claims: TokenClaimsInput = validClaims()): string {
  const encode = (value: object) => base64url.encode(JSON.stringify(value));
  return `${encode({ alg: 'none', typ: ACCESS_TYPE, kid: TEST_KID })}.${encode(claims)}.`;
}

/**
 * Algorithm confusion: an HS256 token whose HMAC secret is the service's own public key, as
 * a verifier that lets the token pick the algorithm would use it.
 */
export function publicKeyAsHmacSecrets(): { name: string; secret: Uint8Array }[] {
  const pem = createPublicKey({ key: testPublicJwk as JsonWebKey, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
  return [
    { name: 'the SPKI PEM', secret: new TextEncoder().encode(String(pem)) },
    { name: 'the JWK JSON', secret: new TextEncoder().encode(JSON.stringify(testPublicJwk)) },
  ];
}

/** An HS256-signed token (algorithm confusion) with the given secret. */
export function hmacToken(secret: Uint8Array, claims: TokenClaimsInput = validClaims()): Promise<string> {
  return mintToken({ claims, header: { alg: 'HS256' }, key: secret });
}
