import { keys } from '../../lib/db/keys';

/**
 * The identity items as the repositories store them (keys, `type`, attributes), for handler
 * tests with a mocked client: a tenant, a user, its credentials (an item of their own, in the
 * CREDENTIALS# partition), its e-mail sentinel, a session and an invitation. Each builder
 * takes the ids it needs and overrides of any attribute; `undefined` leaves one out.
 */

export type Item = Record<string, unknown>;

/** When the stored items were written, unless told. */
export const STORED_AT = '2026-01-01T00:00:00.000Z';

const without = (item: Item): Item => Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));

/** An active tenant named `acme`, with its base account (when given) and no second-factor policy. */
export const storedTenant = (tenantId: string, overrides: Item = {}): Item =>
  without({
    ...keys.tenant(tenantId),
    type: 'Tenant',
    id: tenantId,
    name: 'acme',
    plan: 'STARTER',
    status: 'ACTIVE',
    createdAt: STORED_AT,
    updatedAt: STORED_AT,
    ...overrides,
  });

/**
 * A user of the tenant (Ana Souza, a member) at credential version 0 with one session
 * counted: no secret is on it (`storedCredentials`).
 */
export const storedUser = (tenantId: string, userId: string, overrides: Item = {}): Item =>
  without({
    ...keys.user(tenantId, userId),
    type: 'User',
    id: userId,
    tenantId,
    name: 'Ana Souza',
    email: 'ana@acme.example',
    role: 'MEMBER',
    platformAdmin: false,
    credentialVersion: 0,
    sessionCount: 1,
    createdAt: STORED_AT,
    updatedAt: STORED_AT,
    ...overrides,
  });

/**
 * The user's credentials item: at credential version 0 (as a new user's, moved on with the user
 * item's in every change) with the password hash alone unless told (no reset token, no second
 * factor).
 */
export const storedCredentials = (tenantId: string, userId: string, passwordHash: string, overrides: Item = {}): Item =>
  without({ ...keys.credentials(tenantId, userId), type: 'Credentials', tenantId, userId, credentialVersion: 0, passwordHash, ...overrides });

/** The e-mail's service-wide sentinel, naming its account. */
export const storedEmail = (email: string, tenantId: string, userId: string): Item => ({ ...keys.email(email), type: 'Email', email, tenantId, userId });

/** An active session of the user, opened at credential version 0, as the item `sessionPut` writes. */
export const storedSession = (tenantId: string, userId: string, sessionId: string, overrides: Item = {}): Item =>
  without({
    ...keys.session(tenantId, userId, sessionId),
    type: 'Session',
    id: sessionId,
    tenantId,
    userId,
    status: 'ACTIVE',
    rememberMe: false,
    createdAt: '2026-11-21T22:00:00.000Z',
    lastActiveAt: '2026-11-21T23:00:00.000Z',
    expiresAt: '2026-11-22T10:00:00.000Z',
    ipAddress: '198.51.100.7',
    userAgent: 'vitest',
    refreshJti: 'b7f3c1d2-6a5e-4f4d-9c3b-2a1f0e9d8c7b',
    credentialVersion: 0,
    ...overrides,
  });

/**
 * A pending invitation of `email` into the tenant, its token's SHA-256 `tokenHash`, mailed at
 * `mailedAt` and good for 7 days from then; a member's unless `baseAccount` is set.
 */
export function storedInvitation(tenantId: string, email: string, tokenHash: string, overrides: Item & { mailedAt?: string } = {}): Item {
  const { mailedAt = '2026-11-21T20:00:00.000Z', ...rest } = overrides;
  const expiresAt = new Date(Date.parse(mailedAt) + 7 * 86_400_000).toISOString();
  const id = typeof rest.id === 'string' ? rest.id : 'e2d1c0b9-a8f7-4e6d-8c5b-4a3f2e1d0c9b';
  return without({
    ...keys.invitation(tenantId, email),
    type: 'Invitation',
    id,
    tenantId,
    email,
    invitedBy: '4c3b2a19-0f8e-4d7c-9b6a-5f4e3d2c1b0a',
    createdAt: mailedAt,
    expiresAt,
    expiresAtEpoch: Date.parse(expiresAt) / 1000,
    mailedAtEpoch: Date.parse(mailedAt) / 1000,
    tokenHash,
    gsi1pk: `INVITATION#${id}`,
    gsi1sk: 'INVITATION',
    ttl: Date.parse(expiresAt) / 1000,
    ...rest,
  });
}

/** A BatchGetItem answer holding these items (the code picks each by its key), nothing unprocessed. */
export const batchGetAnswer = (...items: Item[]) => ({ Responses: { 'test-table': items }, UnprocessedKeys: {} });
