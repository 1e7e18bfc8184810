import { randomUUID } from 'node:crypto';
import type { Principal } from '../../lib/auth/principal';

/**
 * A caller as the authorizer establishes it: a member of a fresh tenant with a live session,
 * unless `overrides` says otherwise. The handler tests build their callers from this.
 */
export function testPrincipal(overrides: Partial<Omit<Principal, 'kind'>> = {}): Principal {
  return {
    kind: 'user',
    tenantId: randomUUID(),
    userId: randomUUID(),
    sessionId: randomUUID(),
    jti: randomUUID(),
    role: 'MEMBER',
    platformAdmin: false,
    name: 'Ana Souza',
    email: 'ana@acme.example',
    tokenExpiresAt: 1_795_000_000,
    sessionsValidFrom: null,
    credentialVersion: 0,
    mfaEnrolmentRequired: false,
    ...overrides,
  };
}
