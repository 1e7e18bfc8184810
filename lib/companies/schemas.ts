import * as z from 'zod';
import { documentSchema } from '../domain/documents';
import { emailField, nameField, requiredText } from '../domain/fields';

export const COMPANY_STATUSES = ['ACTIVE', 'DISABLED', 'BLOCKED', 'SUSPENDED'] as const;
export const TAX_REGIMES = ['SIMPLES_NACIONAL', 'LUCRO_PRESUMIDO', 'LUCRO_REAL'] as const;
export const COST_METHODS = ['REPLACEMENT', 'WEIGHTED_AVERAGE'] as const;

/** The 26 states and the Federal District. */
const UFS = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'] as const;

/** A Brazilian address: every key required; state a UF; zipCode a CEP, stored as `01310-100`. */
export const addressSchema = z.strictObject({
  street: requiredText(200),
  number: requiredText(20),
  city: requiredText(100),
  state: z
    .string()
    .trim()
    .toUpperCase()
    .pipe(z.enum(UFS, { message: 'must be a Brazilian state (UF), e.g. SP' })),
  zipCode: z
    .string()
    .trim()
    .regex(/^\d{5}-?\d{3}$/, 'must be a CEP, e.g. 01310-100')
    .transform((cep) => `${cep.replace('-', '').slice(0, 5)}-${cep.replace('-', '').slice(5)}`),
});

/** Free-form JSON configuration: any JSON object (stored as JSON text, so any shape fits). */
export const settingsSchema = z.record(z.string(), z.json());

export const createCompanyBody = z.strictObject({
  name: nameField,
  document: documentSchema,
  email: emailField.optional(),
  address: addressSchema.optional(),
  settings: settingsSchema.optional(),
});

export const updateCompanyBody = z
  .strictObject({
    name: nameField.optional(),
    email: emailField.nullable().optional(),
    address: addressSchema.nullable().optional(),
    settings: settingsSchema.optional(),
    taxRegime: z.enum(TAX_REGIMES, { message: `must be one of ${TAX_REGIMES.join(', ')}` }).optional(),
    costMethod: z.enum(COST_METHODS, { message: `must be one of ${COST_METHODS.join(', ')}` }).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' });

export const updateCompanyStatusBody = z.strictObject({
  status: z.enum(COMPANY_STATUSES, { message: `must be one of ${COMPANY_STATUSES.join(', ')}` }),
});

export const companyView = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  document: z.string(),
  status: z.enum(COMPANY_STATUSES),
  email: z.string().nullable(),
  address: z.object({ street: z.string(), number: z.string(), city: z.string(), state: z.string(), zipCode: z.string() }).nullable(),
  settings: z.record(z.string(), z.unknown()),
  taxRegime: z.enum(TAX_REGIMES),
  costMethod: z.enum(COST_METHODS),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export type CompanyView = z.infer<typeof companyView>;
export type CompanyStatus = (typeof COMPANY_STATUSES)[number];
