import { fromEnv, type FromEnvInit } from '@aws-sdk/credential-provider-env';

type AwsCredentialIdentityProvider = ReturnType<typeof fromEnv>;
type AwsCredentialIdentity = Awaited<ReturnType<AwsCredentialIdentityProvider>>;

/**
 * What the function bundles put in place of `@aws-sdk/credential-provider-node` (an esbuild
 * `alias`, infra/bundling.ts): the AWS clients' default credential chain cut down to its
 * first link, the environment. On Lambda the runtime sets AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN for the execution role, and the full chain
 * would return those too (it tries the environment first); its other links (SSO, ini files,
 * credential_process, web identity, the ECS/IMDS endpoints, and the STS/SSO/sign-in clients
 * they need) never run there, but they are bundled and parsed.
 *
 * Only the bundles use this. Local runs (tsx) and the tests load the real package, with
 * the whole chain (profiles included).
 *
 * Same exports as @aws-sdk/credential-provider-node's index: the clients' runtimeConfig
 * imports `defaultProvider`.
 */

/** Credentials with an expiry this close are read again (the same five minutes as the SDK's chain). */
const REFRESH_BEFORE_MS = 300_000;

export const credentialsWillNeedRefresh = (credentials: AwsCredentialIdentity): boolean => credentials?.expiration !== undefined;

export const credentialsTreatedAsExpired = (credentials: AwsCredentialIdentity): boolean =>
  credentials?.expiration !== undefined && credentials.expiration.getTime() - Date.now() < REFRESH_BEFORE_MS;

/** The environment's credentials, read once and kept unless they carry an expiry that is near. */
export const defaultProvider = (init: FromEnvInit = {}): AwsCredentialIdentityProvider => {
  const read = fromEnv(init);
  let cached: Promise<AwsCredentialIdentity> | undefined;
  return async () => {
    const current = cached;
    if (current) {
      try {
        const credentials = await current;
        if (!credentialsTreatedAsExpired(credentials)) return credentials;
      } catch {
        // A failed read (variables not set) is retried on the next call.
      }
    }
    cached = read();
    return cached;
  };
};
