import { randomUUID } from 'node:crypto';
import type { Principal } from '../../lib/auth/principal';

/** A tenant administrator of `tenantId`, as the authorizer would describe one, for the benchmarks' in-process calls. */
export function benchPrincipal(tenantId: string): Principal {
  return {
    kind: 'user',
    tenantId,
    userId: randomUUID(),
    sessionId: randomUUID(),
    jti: randomUUID(),
    role: 'ADMIN',
    platformAdmin: false,
    name: 'Bench',
    email: 'bench@example.com',
    tokenExpiresAt: 0,
    sessionsValidFrom: null,
    credentialVersion: 0,
    mfaEnrolmentRequired: false,
  };
}
