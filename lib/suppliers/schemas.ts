import * as z from 'zod';
import { documentSchema } from '../domain/documents';
import { emailField, nameField } from '../domain/fields';
import { phoneSchema } from '../domain/phones';
import { supplierSchema, type Supplier } from './model';

/** The fields a client writes: every field of the model but those the service sets. */
type SupplierInputField = Exclude<keyof Supplier, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * What a client's value of each field must be: one rule per field of the model, so a field
 * added to the model is a compile error here until it has a rule (or joins the exclusions).
 */
const supplierInput = {
  name: nameField,
  corporateName: nameField,
  document: documentSchema,
  email: emailField,
  phone: phoneSchema,
  active: z.boolean({ message: 'must be true or false' }),
} satisfies { [K in SupplierInputField]: z.ZodType<NonNullable<Supplier[K]>> };

export const createSupplierBody = z.strictObject(supplierInput).partial({ email: true, phone: true, active: true });

/** PATCH: any of the create fields; null clears email or phone. At least one field. */
export const updateSupplierBody = z
  .strictObject(supplierInput)
  .extend({ email: supplierInput.email.nullable(), phone: supplierInput.phone.nullable() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' });

/** A supplier as the API shows it: the entity without its timestamps, the document formatted with punctuation. */
export const supplierView = supplierSchema.omit({ createdAt: true, updatedAt: true });

export const supplierPageView = z.object({
  data: z.array(supplierView),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});

export type SupplierView = z.infer<typeof supplierView>;
export type SupplierPageView = z.infer<typeof supplierPageView>;
export type CreateSupplierInput = z.output<typeof createSupplierBody>;
export type UpdateSupplierInput = z.output<typeof updateSupplierBody>;
