import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  companyFormOf,
  companyFormProblems,
  createCompanyBody,
  emptyCompanyForm,
  updateCompanyBody,
  type Company,
  type CompanyForm,
} from '../src/pages/companies/form';

const address = { street: 'Avenida Paulista', number: '1000', city: 'São Paulo', state: 'sp', zipCode: '01310-100' };

describe('the company status transitions offered', () => {
  it('offers exactly what the API allows from each status', () => {
    expect(allowedTransitions('ACTIVE')).toEqual(['DISABLED', 'SUSPENDED', 'BLOCKED']);
    expect(allowedTransitions('DISABLED')).toEqual(['ACTIVE']);
    expect(allowedTransitions('SUSPENDED')).toEqual(['ACTIVE']);
  });

  it('offers nothing from BLOCKED to a tenant administrator; ACTIVE to a platform administrator', () => {
    expect(allowedTransitions('BLOCKED')).toEqual([]);
    expect(allowedTransitions('BLOCKED', { platformAdministrator: true })).toEqual(['ACTIVE']);
  });

  it('never offers a status to itself', () => {
    for (const status of ['ACTIVE', 'DISABLED', 'SUSPENDED', 'BLOCKED'] as const)
      expect(allowedTransitions(status, { platformAdministrator: true })).not.toContain(status);
  });
});

describe('the company create body', () => {
  it('sends name and document without punctuation, omitting an empty e-mail and address', () => {
    expect(createCompanyBody({ ...emptyCompanyForm, name: ' Loja Centro ', document: '12.ABC.345/01DE-35' })).toEqual({
      name: 'Loja Centro',
      document: '12ABC34501DE35',
    });
  });

  it('sends a whole address with the CEP raw and the UF upper-cased', () => {
    const body = createCompanyBody({ ...emptyCompanyForm, name: 'Loja', document: '11.222.333/0001-81', email: 'fiscal@example.com', ...address });
    expect(body).toEqual({ name: 'Loja', document: '11222333000181', email: 'fiscal@example.com', address: { ...address, state: 'SP', zipCode: '01310100' } });
  });
});

describe('the company update body', () => {
  const company: Company = {
    id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60',
    tenantId: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f61',
    name: 'Loja',
    document: '11222333000181',
    status: 'ACTIVE',
    email: 'fiscal@example.com',
    address: { street: 'Avenida Paulista', number: '1000', city: 'São Paulo', state: 'SP', zipCode: '01310100' },
    settings: {},
    taxRegime: 'SIMPLES_NACIONAL',
    costMethod: 'WEIGHTED_AVERAGE',
    createdAt: '2026-11-21T10:00:00.000Z',
    updatedAt: '2026-11-21T10:00:00.000Z',
  };
  const original = companyFormOf(company);

  it('reads the company back masked', () => {
    expect(original.document).toBe('11.222.333/0001-81');
    expect(original.zipCode).toBe('01310-100');
  });

  it('sends only what changed, never the document', () => {
    expect(updateCompanyBody({ ...original, name: 'Loja Centro', document: '529.982.247-25' }, original)).toEqual({ name: 'Loja Centro' });
    expect(updateCompanyBody({ ...original, taxRegime: 'LUCRO_REAL' }, original)).toEqual({ taxRegime: 'LUCRO_REAL' });
    expect(updateCompanyBody(original, original)).toBeUndefined();
  });

  it('replaces the address whole, and clears the e-mail and the address with null', () => {
    expect(updateCompanyBody({ ...original, number: '1001' }, original)).toEqual({
      address: { street: 'Avenida Paulista', number: '1001', city: 'São Paulo', state: 'SP', zipCode: '01310100' },
    });
    const cleared: CompanyForm = { ...original, email: '', street: '', number: '', city: '', state: '', zipCode: '' };
    expect(updateCompanyBody(cleared, original)).toEqual({ email: null, address: null });
  });
});

describe('what the company form checks before sending', () => {
  it('asks for a name and a document on create only', () => {
    expect(companyFormProblems(emptyCompanyForm, { creating: true })).toEqual({ name: 'required', document: 'required' });
    expect(companyFormProblems({ ...emptyCompanyForm, name: 'Loja' }, { creating: false })).toEqual({});
  });

  it('wants the whole address or none', () => {
    expect(companyFormProblems({ ...emptyCompanyForm, name: 'Loja', document: '11222333000181', city: 'Recife' }, { creating: true })).toEqual({
      street: 'addressIncomplete',
      number: 'addressIncomplete',
      state: 'addressIncomplete',
      zipCode: 'addressIncomplete',
    });
  });
});
