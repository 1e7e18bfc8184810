import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { config } from '../config';
import { Unauthorized } from '../errors';
import { JWT_ALGORITHM, signingKey, verificationKeys } from './keys';

/**
 * Two token types that can never stand in for each other: the JOSE `typ` header differs
 * (RFC 9068's `at+jwt` for access tokens) and verification demands the expected one.
 */
export const ACCESS_TYPE = 'at+jwt';
export const REFRESH_TYPE = 'refresh+jwt';

export interface TokenClaims {
  sub: string;
  tenantId: string;
  sessionId: string;
  jti: string;
  iat: number;
  exp: number;
}

const REQUIRED_CLAIMS = ['sub', 'tenantId', 'sessionId', 'jti', 'iat', 'exp'] as const;

async function sign(type: string, claims: Omit<TokenClaims, 'iat' | 'jti'>, now: number, jti: string): Promise<string> {
  const { JWT_ISSUER, JWT_AUDIENCE } = config();
  const { kid, key } = await signingKey();
  return new SignJWT({ tenantId: claims.tenantId, sessionId: claims.sessionId })
    .setProtectedHeader({ alg: JWT_ALGORITHM, typ: type, kid })
    .setSubject(claims.sub)
    .setJti(jti)
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(claims.exp)
    .sign(key);
}

/** A freshly issued pair, with the cookie lifetimes the HTTP layer sets them with. */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  /** Seconds; the access cookie lives as long as its token. */
  accessMaxAge: number;
  /** Seconds for a persistent refresh cookie; undefined for a browser-session cookie. */
  refreshMaxAge: number | undefined;
}

export interface SignedToken {
  token: string;
  jti: string;
  exp: number;
}

/** A new access token for a session; `now` in epoch seconds. */
export async function signAccessToken(subject: { userId: string; tenantId: string; sessionId: string }, now: number): Promise<SignedToken> {
  const exp = now + config().ACCESS_TOKEN_TTL_SECONDS;
  const jti = randomUUID();
  const token = await sign(ACCESS_TYPE, { sub: subject.userId, tenantId: subject.tenantId, sessionId: subject.sessionId, exp }, now, jti);
  return { token, jti, exp };
}

/** A new refresh token; it expires with the session (absolute expiry). */
export async function signRefreshToken(
  subject: { userId: string; tenantId: string; sessionId: string },
  now: number,
  sessionExpiresAt: number,
): Promise<SignedToken> {
  const jti = randomUUID();
  const token = await sign(REFRESH_TYPE, { sub: subject.userId, tenantId: subject.tenantId, sessionId: subject.sessionId, exp: sessionExpiresAt }, now, jti);
  return { token, jti, exp: sessionExpiresAt };
}

function isClaims(payload: JWTPayload): payload is JWTPayload & TokenClaims {
  return REQUIRED_CLAIMS.every((claim) => {
    const value = payload[claim];
    return claim === 'iat' || claim === 'exp' ? typeof value === 'number' : typeof value === 'string' && value !== '';
  });
}

/**
 * Verify a token of the given type: signature with a known `kid` and the one allowed
 * algorithm, `typ`, `iss`, `aud`, `exp` and every required claim. Any failure, whatever
 * the client sent, is a 401 and never a 500.
 */
async function verify(token: string, type: string): Promise<TokenClaims> {
  const { JWT_ISSUER, JWT_AUDIENCE } = config();
  const keySet = verificationKeys();
  try {
    const { payload } = await jwtVerify(token, keySet, {
      algorithms: [JWT_ALGORITHM],
      typ: type,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: [...REQUIRED_CLAIMS],
    });
    if (!isClaims(payload)) throw new Unauthorized('The token is missing required claims');
    return { sub: payload.sub, tenantId: payload.tenantId, sessionId: payload.sessionId, jti: payload.jti, iat: payload.iat, exp: payload.exp };
  } catch (error) {
    if (error instanceof Unauthorized) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new Unauthorized('The token has expired');
    // Verification is local crypto over client input: whatever went wrong, the token is bad.
    throw new Unauthorized('The token is not valid');
  }
}

export const verifyAccessToken = (token: string) => verify(token, ACCESS_TYPE);
export const verifyRefreshToken = (token: string) => verify(token, REFRESH_TYPE);
