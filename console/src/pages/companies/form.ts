import type { components } from '@backoffice/client';
import { maskCep, maskDocument, rawCep, rawDocument } from '../../format/masks';

export type Company = components['schemas']['Company'];
export type CompanyStatus = Company['status'];
export type TaxRegime = Company['taxRegime'];
export type CostMethod = Company['costMethod'];
export type CreateCompanyBody = components['schemas']['CreateCompanyRequest'];
export type UpdateCompanyBody = components['schemas']['UpdateCompanyRequest'];
type AddressInput = components['schemas']['AddressInput'];
type State = AddressInput['state'];

export const STATES: readonly State[] = [
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
];
export const TAX_REGIMES: readonly TaxRegime[] = ['SIMPLES_NACIONAL', 'LUCRO_PRESUMIDO', 'LUCRO_REAL'];
export const COST_METHODS: readonly CostMethod[] = ['WEIGHTED_AVERAGE', 'REPLACEMENT'];

/**
 * The status lifecycle as the API enforces it (PATCH /companies/{id}/status): ACTIVE to
 * DISABLED, SUSPENDED or BLOCKED; DISABLED or SUSPENDED back to ACTIVE; BLOCKED to ACTIVE only
 * by a platform administrator. Anything else is a 409, so it is never offered.
 */
export function allowedTransitions(status: CompanyStatus, { platformAdministrator = false } = {}): CompanyStatus[] {
  switch (status) {
    case 'ACTIVE':
      return ['DISABLED', 'SUSPENDED', 'BLOCKED'];
    case 'DISABLED':
    case 'SUSPENDED':
      return ['ACTIVE'];
    case 'BLOCKED':
      return platformAdministrator ? ['ACTIVE'] : [];
  }
}

/** The company form as typed: the document and the CEP masked. */
export interface CompanyForm {
  name: string;
  document: string;
  email: string;
  street: string;
  number: string;
  city: string;
  state: string;
  zipCode: string;
  taxRegime: TaxRegime;
  costMethod: CostMethod;
}

const ADDRESS_FIELDS = ['street', 'number', 'city', 'state', 'zipCode'] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number];

export const emptyCompanyForm: CompanyForm = {
  name: '',
  document: '',
  email: '',
  street: '',
  number: '',
  city: '',
  state: '',
  zipCode: '',
  taxRegime: 'SIMPLES_NACIONAL',
  costMethod: 'WEIGHTED_AVERAGE',
};

export function companyFormOf(company: Company): CompanyForm {
  return {
    name: company.name,
    document: maskDocument(company.document),
    email: company.email ?? '',
    street: company.address?.street ?? '',
    number: company.address?.number ?? '',
    city: company.address?.city ?? '',
    state: company.address?.state ?? '',
    zipCode: company.address ? maskCep(company.address.zipCode) : '',
    taxRegime: company.taxRegime,
    costMethod: company.costMethod,
  };
}

/** The address as the API takes it (the CEP without its dash), or null when every address field is blank. */
function addressOf(form: CompanyForm): AddressInput | null {
  const value = {
    street: form.street.trim(),
    number: form.number.trim(),
    city: form.city.trim(),
    state: form.state.trim().toUpperCase(),
    zipCode: rawCep(form.zipCode),
  };
  if (ADDRESS_FIELDS.every((field) => value[field] === '')) return null;
  // An incomplete address is sent as typed: the server names each missing field.
  return { ...value, state: value.state as State };
}

const sameAddress = (a: AddressInput | null, b: AddressInput | null) => JSON.stringify(a) === JSON.stringify(b);

/** POST /companies: name and document (without punctuation), the e-mail and address only when given. */
export function createCompanyBody(form: CompanyForm): CreateCompanyBody {
  const email = form.email.trim();
  const address = addressOf(form);
  return {
    name: form.name.trim(),
    document: rawDocument(form.document),
    ...(email ? { email } : {}),
    ...(address ? { address } : {}),
  };
}

/**
 * PATCH /companies/{id}: the fields that changed (the document never does); an e-mail or an
 * address emptied is null, which clears it. Undefined when nothing changed.
 */
export function updateCompanyBody(form: CompanyForm, original: CompanyForm): UpdateCompanyBody | undefined {
  const body: UpdateCompanyBody = {};
  if (form.name.trim() !== original.name.trim()) body.name = form.name.trim();
  if (form.email.trim() !== original.email.trim()) body.email = form.email.trim() || null;
  const address = addressOf(form);
  if (!sameAddress(address, addressOf(original))) body.address = address;
  if (form.taxRegime !== original.taxRegime) body.taxRegime = form.taxRegime;
  if (form.costMethod !== original.costMethod) body.costMethod = form.costMethod;
  return Object.keys(body).length > 0 ? body : undefined;
}

export type CompanyField = keyof CompanyForm;
export type CompanyProblem = 'required' | 'documentLength' | 'addressIncomplete';

/** What the form tells before sending: a name, a document of a CPF's or CNPJ's length, a whole address or none. */
export function companyFormProblems(form: CompanyForm, { creating }: { creating: boolean }): Partial<Record<CompanyField, CompanyProblem>> {
  const problems: Partial<Record<CompanyField, CompanyProblem>> = {};
  if (!form.name.trim()) problems.name = 'required';
  if (creating) {
    const document = rawDocument(form.document);
    if (!document) problems.document = 'required';
    else if (document.length !== 11 && document.length !== 14) problems.document = 'documentLength';
  }
  const filled = ADDRESS_FIELDS.filter((field: AddressField) => form[field].trim() !== '');
  if (filled.length > 0 && filled.length < ADDRESS_FIELDS.length) {
    for (const field of ADDRESS_FIELDS) if (form[field].trim() === '') problems[field] = 'addressIncomplete';
  }
  return problems;
}
