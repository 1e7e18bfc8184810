import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * The company: a fiscal entity or branch of a tenant. Its enums, its shape as stored and
 * shown, and the types derived from them; request schemas (./schemas), the repository and
 * the OpenAPI document all start here.
 */

import { COMPANY_STATUSES, COST_METHODS } from '../domain/companies';

export { COMPANY_STATUSES, COST_METHODS };
export const TAX_REGIMES = ['SIMPLES_NACIONAL', 'LUCRO_PRESUMIDO', 'LUCRO_REAL'] as const;

export const companySchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    tenantId: z.uuid(),
    name: z.string(),
    /** CPF or CNPJ, normalized (digits, upper-case letters); unique across the service. */
    document: z.string(),
    status: z.enum(COMPANY_STATUSES),
    email: z.nullable(z.string()),
    address: z.nullable(z.object({ street: z.string(), number: z.string(), city: z.string(), state: z.string(), zipCode: z.string() })),
    settings: z.record(z.string(), z.unknown()),
    taxRegime: z.enum(TAX_REGIMES),
    costMethod: z.enum(COST_METHODS),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  }),
);

export type Company = z.infer<typeof companySchema>;

export type CompanyStatus = Company['status'];
