import * as classic from 'zod';
import * as z from 'zod/mini';
import { documentSchema } from '../domain/documents';
import { documented, emailField, nameField, requiredText } from '../domain/fields';
import { storableText, textProblem } from '../domain/text';
import { companySchema, COMPANY_STATUSES, COST_METHODS, TAX_REGIMES, type Company } from './model';
import { schema } from '../domain/schema';

export { COMPANY_STATUSES, COST_METHODS, TAX_REGIMES, type CompanyStatus } from './model';

/** The 26 states and the Federal District. */
const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

/** A Brazilian address: every key required; state a UF; zipCode a CEP, stored as `01310-100`. */
export const addressSchema = /* @__PURE__ */ schema(() =>
  z.strictObject({
    street: requiredText(200),
    number: requiredText(20),
    city: requiredText(100),
    state: documented(
      z.pipe(z.string().check(z.trim(), z.toUpperCase()), z.enum(UFS, { message: 'must be a Brazilian state (UF), e.g. SP' })),
      // The OpenAPI document shows the input side of a pipe (a string): the UFs are stated here.
      { enum: [...UFS], description: 'A UF (state or Federal District), e.g. SP; lower case is accepted and upper-cased.', examples: ['SP'] },
    ),
    zipCode: z.pipe(
      documented(z.string().check(z.trim(), z.regex(/^\d{5}-?\d{3}$/, 'must be a CEP, e.g. 01310-100')), { examples: ['01310-100'] }),
      z.transform((cep: string) => `${cep.replace('-', '').slice(0, 5)}-${cep.replace('-', '').slice(5)}`),
    ),
  }),
);

/**
 * Every key and string inside a settings value: keys are text like any stored name; string
 * values may hold control characters (a newline or a tab is data there), but no
 * bidirectional controls or non-scalar characters.
 */
function checkSettingsValue(value: unknown, path: (string | number)[], ctx: z.core.$RefinementCtx): void {
  if (typeof value === 'string') {
    const problem = textProblem(value, 'allowed');
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => checkSettingsValue(item, [...path, index], ctx));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = textProblem(key);
      if (problem) ctx.addIssue({ code: 'custom', message: `key ${problem}`, path: [...path, key] });
      checkSettingsValue(item, [...path, key], ctx);
    }
  }
}

/**
 * Free-form JSON configuration: any JSON object (stored as JSON text, so any shape fits),
 * within the body's nesting limit, its keys and strings text (see `checkSettingsValue`).
 */
export const settingsSchema = /* @__PURE__ */ schema(() =>
  z.record(z.string().check(z.superRefine(storableText)), z.json()).check(
    z.superRefine((settings, ctx) => {
      for (const [key, value] of Object.entries(settings)) checkSettingsValue(value, [key], ctx);
    }),
  ),
);

export const createCompanyBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    name: nameField,
    document: documentSchema,
    email: z.optional(emailField),
    address: z.optional(addressSchema),
    settings: z.optional(settingsSchema),
  }),
);

export const updateCompanyBody = /* @__PURE__ */ schema(() =>
  z
    .strictObject({
      name: z.optional(nameField),
      email: z.optional(z.nullable(emailField)),
      address: z.optional(z.nullable(addressSchema)),
      settings: z.optional(settingsSchema),
      taxRegime: z.optional(z.enum(TAX_REGIMES, { message: `must be one of ${TAX_REGIMES.join(', ')}` })),
      costMethod: z.optional(z.enum(COST_METHODS, { message: `must be one of ${COST_METHODS.join(', ')}` })),
    })
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })),
);

export const updateCompanyStatusBody = /* @__PURE__ */ schema(() =>
  z.strictObject({
    status: z.enum(COMPANY_STATUSES, { message: `must be one of ${COMPANY_STATUSES.join(', ')}` }),
  }),
);

/** A company as the API shows it: the entity itself (see ./model). A view (lib/domain/schema.ts, "Views"). */
export const companyView = /* @__PURE__ */ schema(() => classic.object(companySchema.shape));
export type CompanyView = Company;

export const companyListView = /* @__PURE__ */ schema(() => classic.array(companyView));
