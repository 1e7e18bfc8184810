/**
 * `npm run generate-signing-key [-- --kid KID]`: a new ES256 key pair for token signing.
 *
 * Prints the private JWK (store it in the stack's signing-key secret) and the public JWK
 * (add it to the `jwtPublicKeys` JWKS). Rotation without logging anyone out:
 *   1. add the new public key to jwtPublicKeys next to the old one, deploy;
 *   2. put the new private key in the secret (functions pick it up on their next cold start);
 *   3. after the longest refresh lifetime (rememberMe, `settings.rememberMeSeconds` in lib/settings.ts: 30 days), drop the old public key, deploy.
 */
import { parseArgs } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';
import { JWT_ALGORITHM } from '../lib/auth/keys';

const { values } = parseArgs({ options: { kid: { type: 'string' } } });
const kid = values.kid ?? `key-${new Date().toISOString().slice(0, 10)}`;
const { privateKey, publicKey } = await generateKeyPair(JWT_ALGORITHM, { extractable: true });
const meta = { kid, alg: JWT_ALGORITHM, use: 'sig' };

console.log('Private JWK (the signing-key secret value):');
console.log(JSON.stringify({ ...(await exportJWK(privateKey)), ...meta }));
console.log('\nPublic JWK (add to the jwtPublicKeys key set):');
console.log(JSON.stringify({ ...(await exportJWK(publicKey)), ...meta }));
