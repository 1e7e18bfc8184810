/**
 * The rules the public account pages check before sending: a new password typed twice, and
 * the tenant's slug derived from the company's name. The API checks them again and has the
 * last word (its field errors are shown as they come); these only save a round trip.
 */

/** The API's password rule (lib/auth/passwords.ts): 8 to 128 characters, not blank. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export type PasswordProblem = 'tooShort' | 'tooLong' | 'blank' | 'mismatch';

/** What is wrong with a new password and its confirmation, or undefined when both are fine. */
export function newPasswordProblem(password: string, confirmation: string): PasswordProblem | undefined {
  if (password.length > 0 && password.trim().length === 0) return 'blank';
  if (password.length < PASSWORD_MIN) return 'tooShort';
  if (password.length > PASSWORD_MAX) return 'tooLong';
  if (password !== confirmation) return 'mismatch';
  return undefined;
}

/** Names POST /tenants refuses like a taken one (lib/tenants/schemas.ts). */
export const RESERVED_SLUGS: readonly string[] = [
  'platform',
  'admin',
  'administrator',
  'root',
  'system',
  'internal',
  'staff',
  'official',
  'api',
  'app',
  'www',
  'mail',
  'support',
  'help',
  'security',
  'status',
  'billing',
  'abuse',
];

export const SLUG_MIN = 3;
export const SLUG_MAX = 63;
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * A company's name as a tenant slug: accents dropped (`Café` → `cafe`), lower case, every run
 * of other characters one dash, no dash at either end, cut to 63 characters.
 */
export function slugOf(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

export type SlugProblem = 'tooShort' | 'tooLong' | 'format' | 'reserved';

/** Why the API would refuse a slug, or undefined when it may be free (only the API knows whether it is taken). */
export function slugProblem(slug: string): SlugProblem | undefined {
  if (slug.length < SLUG_MIN) return 'tooShort';
  if (slug.length > SLUG_MAX) return 'tooLong';
  if (!SLUG.test(slug)) return 'format';
  if (RESERVED_SLUGS.includes(slug)) return 'reserved';
  return undefined;
}

/** The query of an e-mailed invitation link (`/register?tenantId=…&email=…&token=…`), or undefined when a part is missing. */
export function invitationOf(search: string): { tenantId: string; email: string; token: string } | undefined {
  const query = new URLSearchParams(search);
  const tenantId = query.get('tenantId');
  const email = query.get('email');
  const token = query.get('token');
  return tenantId && email && token ? { tenantId, email, token } : undefined;
}

/** The message key of each password problem in recovery-messages.ts. */
export const PASSWORD_PROBLEM_TEXT = {
  tooShort: 'passwordTooShort',
  tooLong: 'passwordTooLong',
  blank: 'passwordBlank',
  mismatch: 'passwordMismatch',
} as const satisfies Record<PasswordProblem, string>;

/** The message key of each slug problem in recovery-messages.ts. */
export const SLUG_PROBLEM_TEXT = { tooShort: 'slugTooShort', tooLong: 'slugTooLong', format: 'slugFormat', reserved: 'slugReserved' } as const satisfies Record<
  SlugProblem,
  string
>;
