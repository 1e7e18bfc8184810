import type { components } from '@backoffice/client';
import { maskDocument, maskPhone, rawDocument } from '../../format/masks';

export type Supplier = components['schemas']['Supplier'];
export type CreateSupplierBody = components['schemas']['CreateSupplierRequest'];
export type UpdateSupplierBody = components['schemas']['UpdateSupplierRequest'];

/** The supplier form as typed: the document and the phone masked, as the user sees them. */
export interface SupplierForm {
  name: string;
  corporateName: string;
  document: string;
  email: string;
  phone: string;
  active: boolean;
}

export const emptySupplierForm: SupplierForm = { name: '', corporateName: '', document: '', email: '', phone: '', active: true };

/** The form of an existing supplier (the API answers the document formatted and the phone in E.164). */
export function supplierFormOf(supplier: Supplier): SupplierForm {
  return {
    name: supplier.name,
    corporateName: supplier.corporateName,
    document: maskDocument(supplier.document),
    email: supplier.email ?? '',
    phone: supplier.phone ? maskPhone(supplier.phone) : '',
    active: supplier.active,
  };
}

/** A phone field with no digit (empty, or only the `+` the mask keeps) is no phone. */
const phoneOf = (phone: string) => (/\d/.test(phone) ? phone.trim() : '');

/** What is sent for each field: trimmed text, the document without punctuation. */
function normalised(form: SupplierForm) {
  return {
    name: form.name.trim(),
    corporateName: form.corporateName.trim(),
    document: rawDocument(form.document),
    email: form.email.trim(),
    phone: phoneOf(form.phone),
    active: form.active,
  };
}

/** POST /suppliers: the required fields, the optional ones only when filled. */
export function createSupplierBody(form: SupplierForm): CreateSupplierBody {
  const value = normalised(form);
  return {
    name: value.name,
    corporateName: value.corporateName,
    document: value.document,
    ...(value.email ? { email: value.email } : {}),
    ...(value.phone ? { phone: value.phone } : {}),
    active: value.active,
  };
}

/**
 * PATCH /suppliers/{id}: only the fields that changed from `original`; an e-mail or phone
 * emptied is sent as null, which clears it. Undefined when nothing changed (the API refuses an
 * empty body).
 */
export function updateSupplierBody(form: SupplierForm, original: SupplierForm): UpdateSupplierBody | undefined {
  const next = normalised(form);
  const before = normalised(original);
  const body: UpdateSupplierBody = {};
  if (next.name !== before.name) body.name = next.name;
  if (next.corporateName !== before.corporateName) body.corporateName = next.corporateName;
  if (next.document !== before.document) body.document = next.document;
  if (next.email !== before.email) body.email = next.email || null;
  if (next.phone.replace(/\D/g, '') !== before.phone.replace(/\D/g, '')) body.phone = next.phone || null;
  if (next.active !== before.active) body.active = next.active;
  return Object.keys(body).length > 0 ? body : undefined;
}

export type SupplierField = keyof SupplierForm;
export type SupplierProblem = 'required' | 'documentLength';

/**
 * What the form can tell before sending: required fields filled, a document of a CPF's or a
 * CNPJ's length. Everything else (check digits, e-mail, phone) the server says in its words.
 */
export function supplierFormProblems(form: SupplierForm): Partial<Record<SupplierField, SupplierProblem>> {
  const value = normalised(form);
  const problems: Partial<Record<SupplierField, SupplierProblem>> = {};
  if (!value.name) problems.name = 'required';
  if (!value.corporateName) problems.corporateName = 'required';
  if (!value.document) problems.document = 'required';
  else if (value.document.length !== 11 && value.document.length !== 14) problems.document = 'documentLength';
  return problems;
}
