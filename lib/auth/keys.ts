import { createLocalJWKSet, importJWK, type CryptoKey, type JSONWebKeySet, type JWK } from 'jose';
import { config } from '../config';
import { secretText } from '../secrets';

/** The one signature algorithm accepted anywhere; nothing else verifies. */
export const JWT_ALGORITHM = 'ES256';

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

let verifier: ReturnType<typeof createLocalJWKSet> | undefined;
let signing: Promise<SigningKey> | undefined;

/**
 * The verification key set: every public key that may still have signed a live token.
 * Rotation = add the new key here, switch the signing key, drop the old one after the
 * longest refresh lifetime. Keys are selected by the token's `kid`.
 */
export function verificationKeys(): ReturnType<typeof createLocalJWKSet> {
  if (verifier) return verifier;
  const { JWT_PUBLIC_KEYS } = config();
  if (!JWT_PUBLIC_KEYS) throw new Error('Invalid configuration: JWT_PUBLIC_KEYS is required to verify tokens');
  verifier = createLocalJWKSet(JSON.parse(JWT_PUBLIC_KEYS) as JSONWebKeySet);
  return verifier;
}

async function loadSigningJwk(): Promise<JWK> {
  const { JWT_SIGNING_KEY, JWT_SIGNING_KEY_SECRET_ID } = config();
  if (JWT_SIGNING_KEY) return JSON.parse(JWT_SIGNING_KEY) as JWK;
  if (!JWT_SIGNING_KEY_SECRET_ID) throw new Error('Invalid configuration: JWT_SIGNING_KEY or JWT_SIGNING_KEY_SECRET_ID is required to sign tokens');
  // Read only by the functions that sign, once per container.
  return JSON.parse(await secretText(JWT_SIGNING_KEY_SECRET_ID)) as JWK;
}

/** The current private signing key with its `kid`. */
export function signingKey(): Promise<SigningKey> {
  signing ??= loadSigningJwk().then(async (jwk) => {
    if (!jwk.kid) throw new Error('The signing key has no kid');
    return { kid: jwk.kid, key: (await importJWK(jwk, JWT_ALGORITHM)) as CryptoKey };
  });
  signing.catch(() => {
    signing = undefined;
  });
  return signing;
}

/** Forget loaded keys (tests that rotate keys). */
export function resetKeys(): void {
  verifier = undefined;
  signing = undefined;
}
