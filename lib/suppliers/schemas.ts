import * as z from 'zod';
import { documentSchema } from '../domain/documents';
import { emailField, integerParam, nameField } from '../domain/fields';
import { phoneSchema } from '../domain/phones';
import { supplierSchema, type Supplier } from './model';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_SEARCH_CHARACTERS = 100;

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

/** GET /suppliers (contract section 5); any other parameter is a 400. */
export const listSuppliersQuery = z.strictObject({
  page: integerParam(1, Number.MAX_SAFE_INTEGER, 'must be an integer of at least 1').default(1),
  limit: integerParam(1, MAX_PAGE_SIZE, `must be an integer from 1 to ${MAX_PAGE_SIZE}`).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(MAX_SEARCH_CHARACTERS, `must be at most ${MAX_SEARCH_CHARACTERS} characters`).optional(),
});

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
export type ListSuppliersInput = z.output<typeof listSuppliersQuery>;
