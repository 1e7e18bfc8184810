/**
 * What an API key may reach, Stripe-style: none, read or write per resource. Pure data, read
 * by the route manifest (each route names the resource and the access it needs), by the
 * authorizer (which decides from it) and by the key's model.
 *
 * Users, invitations, sessions, the second factor, API keys and tenants are no resource a key
 * can be granted: a key cannot make a key, nor reach anyone's account.
 */

export const API_KEY_RESOURCES = ['companies', 'suppliers', 'inventory', 'purchasing', 'dashboards', 'audit', 'events'] as const;
export type ApiKeyResource = (typeof API_KEY_RESOURCES)[number];

/** What a route needs of its resource: `read` for GET, `write` for the rest. */
export type ApiKeyAccess = 'read' | 'write';

/** What a key holds of one resource (`none` is never stored: an absent resource is none). */
export const API_KEY_LEVELS = ['none', 'read', 'write'] as const;
export type ApiKeyLevel = (typeof API_KEY_LEVELS)[number];

/** Resources no route writes: a key holds at most `read` of them. */
export const READ_ONLY_RESOURCES: readonly ApiKeyResource[] = ['dashboards', 'audit', 'events'];

/** A key's grants: the resources it may read or write (absent: none). */
export type ApiKeyScopes = Partial<Record<ApiKeyResource, Exclude<ApiKeyLevel, 'none'>>>;

/** A route's declaration in the manifest: the resource and the access a key needs, or `false` (cookie sessions only). */
export type RouteKeyAccess = { resource: ApiKeyResource; access: ApiKeyAccess } | false;

/** Whether grants reach what a route needs (write includes read). */
export const scopesAllow = (scopes: ApiKeyScopes, need: { resource: ApiKeyResource; access: ApiKeyAccess }): boolean =>
  scopes[need.resource] === 'write' || scopes[need.resource] === need.access;

/** Every resource with its level, `none` included: how the API shows a key's scopes. */
export const allLevels = (scopes: ApiKeyScopes): Record<ApiKeyResource, ApiKeyLevel> =>
  Object.fromEntries(API_KEY_RESOURCES.map((resource) => [resource, scopes[resource] ?? 'none'])) as Record<ApiKeyResource, ApiKeyLevel>;
