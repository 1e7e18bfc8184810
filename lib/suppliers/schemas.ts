import * as classic from 'zod';
import * as z from 'zod/mini';
import { documentSchema } from '../domain/documents';
import { emailField, nameField } from '../domain/fields';
import { phoneSchema } from '../domain/phones';
import { supplierSchema, type Supplier } from './model';
import { schema } from '../domain/schema';

/** The fields a client writes: every field of the model but those the service sets. */
type SupplierInputField = Exclude<keyof Supplier, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * What a client's value of each field must be: one rule per field of the model, so a field
 * added to the model is a compile error here until it has a rule (or joins the exclusions).
 */
const supplierInput = /* @__PURE__ */ schema(
  () =>
    ({
      name: nameField,
      corporateName: nameField,
      document: documentSchema,
      email: emailField,
      phone: phoneSchema,
      active: z.boolean({ message: 'must be true or false' }),
    }) satisfies { [K in SupplierInputField]: z.ZodMiniType<NonNullable<Supplier[K]>> },
);

export const createSupplierBody = /* @__PURE__ */ schema(() => z.partial(z.strictObject(supplierInput), { email: true, phone: true, active: true }));

/** PATCH: any of the create fields; null clears email or phone. At least one field. */
export const updateSupplierBody = /* @__PURE__ */ schema(() =>
  z
    .partial(z.extend(z.strictObject(supplierInput), { email: z.nullable(supplierInput.email), phone: z.nullable(supplierInput.phone) }))
    .check(z.refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' })),
);

/**
 * A supplier as the API shows it: the entity without its timestamps, the document formatted
 * with punctuation. A view (lib/domain/schema.ts, "Views").
 */
export const supplierView = /* @__PURE__ */ schema(() => classic.object(supplierSchema.shape).omit({ createdAt: true, updatedAt: true }));

export const supplierPageView = /* @__PURE__ */ schema(() =>
  classic.object({
    data: classic.array(supplierView),
    total: classic.number().int(),
    page: classic.number().int(),
    limit: classic.number().int(),
  }),
);

export type SupplierView = classic.infer<typeof supplierView>;
export type SupplierPageView = classic.infer<typeof supplierPageView>;
export type CreateSupplierInput = z.output<typeof createSupplierBody>;
export type UpdateSupplierInput = z.output<typeof updateSupplierBody>;
