import * as z from 'zod';
import { documentSchema } from '../domain/documents';
import { emailField, nameField } from '../domain/fields';
import { phoneSchema } from '../domain/phones';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_SEARCH_CHARACTERS = 100;

const activeField = z.boolean({ message: 'must be true or false' });

export const createSupplierBody = z.strictObject({
  name: nameField,
  corporateName: nameField,
  document: documentSchema,
  email: emailField.optional(),
  phone: phoneSchema.optional(),
  active: activeField.optional(),
});

/** PATCH: any of the create fields; null clears email or phone. At least one field. */
export const updateSupplierBody = z
  .strictObject({
    name: nameField.optional(),
    corporateName: nameField.optional(),
    document: documentSchema.optional(),
    email: emailField.nullable().optional(),
    phone: phoneSchema.nullable().optional(),
    active: activeField.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'at least one field is required' });

/**
 * A query-string integer: digits only (no sign, decimals, exponent or blanks, which
 * `Number()` would quietly accept), so the number is an integer; then range-checked (the
 * upper bound also refuses digits past the safe-integer range).
 */
const integerParam = (min: number, max: number, message: string) =>
  z
    .string()
    .regex(/^[0-9]+$/, message)
    .transform(Number)
    .pipe(z.number().min(min, message).max(max, message));

/** GET /suppliers (contract section 5); any other parameter is a 400. */
export const listSuppliersQuery = z.strictObject({
  page: integerParam(1, Number.MAX_SAFE_INTEGER, 'must be an integer of at least 1').default(1),
  limit: integerParam(1, MAX_PAGE_SIZE, `must be an integer from 1 to ${MAX_PAGE_SIZE}`).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(MAX_SEARCH_CHARACTERS, `must be at most ${MAX_SEARCH_CHARACTERS} characters`).optional(),
});

export const supplierView = z.object({
  id: z.uuid(),
  name: z.string(),
  corporateName: z.string(),
  /** Formatted with punctuation. */
  document: z.string(),
  email: z.string().nullable(),
  /** E.164. */
  phone: z.string().nullable(),
  active: z.boolean(),
});

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
