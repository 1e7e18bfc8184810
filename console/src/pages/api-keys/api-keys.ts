/**
 * The API keys section's rules, apart from React and from the API client (as logic.ts, so the
 * browser tests and the root typecheck may import them): the create form's body, the roll's
 * hours, and what a listed key's dates mean now. The types follow the API's (lib/domain/key-scopes.ts).
 */

/** The resources a key may be granted, in the order the API lists them. */
export const KEY_RESOURCES = ['companies', 'suppliers', 'inventory', 'purchasing', 'dashboards', 'audit', 'events'] as const;
export type KeyResource = (typeof KEY_RESOURCES)[number];
export type KeyLevel = 'none' | 'read' | 'write';

/** What the form offers per resource: dashboards, the audit trail and the events are only read. */
export const LEVELS_OF: Record<KeyResource, readonly KeyLevel[]> = {
  companies: ['none', 'read', 'write'],
  suppliers: ['none', 'read', 'write'],
  inventory: ['none', 'read', 'write'],
  purchasing: ['none', 'read', 'write'],
  dashboards: ['none', 'read'],
  audit: ['none', 'read'],
  events: ['none', 'read'],
};

/** The create form as typed: a level per resource, the expiry day as a date input gives it (`YYYY-MM-DD`, or empty), a company id or empty. */
export interface KeyForm {
  name: string;
  scopes: Record<KeyResource, KeyLevel>;
  expiresOn: string;
  companyId: string;
}

export const EMPTY_KEY_FORM: KeyForm = {
  name: '',
  scopes: { companies: 'none', suppliers: 'none', inventory: 'none', purchasing: 'none', dashboards: 'none', audit: 'none', events: 'none' },
  expiresOn: '',
  companyId: '',
};

/** The scopes POST /api-keys takes: the resources granted only (an absent one is none). */
export interface KeyGrants {
  companies?: 'read' | 'write';
  suppliers?: 'read' | 'write';
  inventory?: 'read' | 'write';
  purchasing?: 'read' | 'write';
  dashboards?: 'read';
  audit?: 'read';
}

export interface CreateKeyBody {
  name: string;
  scopes: KeyGrants;
  expiresAt?: string;
  companyId?: string;
}

/** The form with a resource's level changed; a company limit goes when companies drops to none (the API refuses it then). */
export function withLevel(form: KeyForm, resource: KeyResource, level: KeyLevel): KeyForm {
  const next = { ...form, scopes: { ...form.scopes, [resource]: LEVELS_OF[resource].includes(level) ? level : 'none' } };
  return companyLimitAllowed(next) ? next : { ...next, companyId: '' };
}

/** A company limit applies to the companies' routes: the API takes it only with companies read or write. */
export const companyLimitAllowed = (form: KeyForm) => form.scopes.companies !== 'none';

/** Whether the form grants anything: the API refuses a key that opens nothing. */
export const grantsAnything = (form: KeyForm) => KEY_RESOURCES.some((resource) => form.scopes[resource] !== 'none');

/** The form's own checks before it is sent, by field; the server's messages come after. */
export function keyFormProblems(form: KeyForm): { name?: 'required'; scopes?: 'grantOne' } {
  return { ...(form.name.trim() ? {} : { name: 'required' as const }), ...(grantsAnything(form) ? {} : { scopes: 'grantOne' as const }) };
}

/**
 * POST /api-keys' body: the name trimmed, the granted resources only, the expiry as the end of
 * the chosen day (an ISO date-time with its offset, from `endOfDay`: format/date.ts's
 * endOfDayIso), the company only when the companies scope lets it apply.
 */
export function createKeyBody(form: KeyForm, endOfDay: (day: string) => string): CreateKeyBody {
  const scopes: KeyGrants = {};
  const { companies, suppliers, inventory, dashboards, audit } = form.scopes;
  if (companies !== 'none') scopes.companies = companies;
  if (suppliers !== 'none') scopes.suppliers = suppliers;
  if (inventory !== 'none') scopes.inventory = inventory;
  if (dashboards === 'read') scopes.dashboards = dashboards;
  if (audit === 'read') scopes.audit = audit;
  const body: CreateKeyBody = { name: form.name.trim(), scopes };
  if (/^\d{4}-\d{2}-\d{2}$/.test(form.expiresOn)) body.expiresAt = endOfDay(form.expiresOn);
  if (form.companyId && companyLimitAllowed(form)) body.companyId = form.companyId;
  return body;
}

/** The longest an old secret keeps working after a roll (lib/api-keys/schemas.ts MAX_ROLL_OVERLAP_HOURS). */
export const MAX_ROLL_HOURS = 168;
export const DEFAULT_ROLL_HOURS = '24';

/** The hours typed in the roll form, or undefined when they are no whole number from 0 to 168. */
export function rollHoursOf(input: string): number | undefined {
  const text = input.trim();
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const hours = Number(text);
  return hours <= MAX_ROLL_HOURS ? hours : undefined;
}

/** A day as a date input's value (`YYYY-MM-DD`), in the browser's zone: the earliest expiry the form offers. */
export function dayOf(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Whether a listed key is past its expiry now. */
export const isExpired = (expiresAt: string | null, nowMs: number) => expiresAt !== null && Date.parse(expiresAt) <= nowMs;

/**
 * What a listed key's previous secret does now: never rolled; still works until a time (the
 * overlap a roll gave); or no longer works (a roll with 0 hours, or the overlap is over).
 */
export type PreviousSecret = { kind: 'never' } | { kind: 'works'; until: string } | { kind: 'stopped' };

export function previousSecretOf(key: { rolledAt: string | null; previousSecretExpiresAt: string | null }, nowMs: number): PreviousSecret {
  if (key.previousSecretExpiresAt !== null && Date.parse(key.previousSecretExpiresAt) > nowMs) return { kind: 'works', until: key.previousSecretExpiresAt };
  return key.rolledAt === null ? { kind: 'never' } : { kind: 'stopped' };
}

/** The company a key is limited to, by name when the tenant's companies are known, else its id; undefined when it has no limit. */
export function companyOf(
  companyId: string | null,
  companies: readonly { id: string; name: string }[] | undefined,
): { name: string; known: boolean } | undefined {
  if (companyId === null) return undefined;
  const company = companies?.find((candidate) => candidate.id === companyId);
  return company ? { name: company.name, known: true } : { name: companyId, known: false };
}
