import * as z from 'zod/mini';
import { schema } from '../domain/schema';

/**
 * The supplier: a business a tenant buys from. Its shape as stored and the type derived from
 * it; the request schemas and the view (./schemas) and the repository all start here.
 */

export const supplierSchema = /* @__PURE__ */ schema(() =>
  z.object({
    id: z.uuid(),
    name: z.string(),
    corporateName: z.string(),
    /** CPF or CNPJ, normalized (digits, upper-case letters); unique within the tenant. The view formats it. */
    document: z.string(),
    email: z.nullable(z.string()),
    /** E.164. */
    phone: z.nullable(z.string()),
    active: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  }),
);

export type Supplier = z.infer<typeof supplierSchema>;
