import { describe, expect, it } from 'vitest';
import {
  createSupplierBody,
  emptySupplierForm,
  supplierFormOf,
  supplierFormProblems,
  updateSupplierBody,
  type SupplierForm,
} from '../src/pages/suppliers/form';

const typed: SupplierForm = {
  name: '  Café do Sul ',
  corporateName: 'Café do Sul Comércio Ltda',
  document: '11.222.333/0001-81',
  email: '',
  phone: '+',
  active: true,
};

describe('the supplier create body', () => {
  it('sends the document without punctuation and omits empty optional fields', () => {
    expect(createSupplierBody(typed)).toEqual({ name: 'Café do Sul', corporateName: 'Café do Sul Comércio Ltda', document: '11222333000181', active: true });
  });

  it('sends the e-mail and the phone when given, an alphanumeric CNPJ upper-cased', () => {
    const body = createSupplierBody({ ...typed, document: '12.abc.345/01de-35', email: ' vendas@example.com ', phone: '+55 51 3333-4444', active: false });
    expect(body).toEqual({
      name: 'Café do Sul',
      corporateName: 'Café do Sul Comércio Ltda',
      document: '12ABC34501DE35',
      email: 'vendas@example.com',
      phone: '+55 51 3333-4444',
      active: false,
    });
  });
});

describe('the supplier update body', () => {
  const supplier = {
    id: '3f2c9a7e-8b41-4d6a-9c3e-5a7b1d2e4f60',
    name: 'Café do Sul',
    corporateName: 'Café do Sul Ltda',
    document: '529.982.247-25',
    email: 'a@example.com',
    phone: '+5511987654321',
    active: true,
  };
  const original = supplierFormOf(supplier);

  it('reads the stored supplier back into the masked form', () => {
    expect(original).toEqual({
      name: 'Café do Sul',
      corporateName: 'Café do Sul Ltda',
      document: '529.982.247-25',
      email: 'a@example.com',
      phone: '+55 11 98765-4321',
      active: true,
    });
  });

  it('sends only what changed', () => {
    expect(updateSupplierBody({ ...original, name: 'Café do Norte' }, original)).toEqual({ name: 'Café do Norte' });
    expect(updateSupplierBody({ ...original, document: '111.444.777-35' }, original)).toEqual({ document: '11144477735' });
    expect(updateSupplierBody({ ...original, active: false }, original)).toEqual({ active: false });
  });

  it('sends null to clear an e-mail or a phone emptied', () => {
    expect(updateSupplierBody({ ...original, email: ' ', phone: '' }, original)).toEqual({ email: null, phone: null });
  });

  it('sends nothing when nothing changed (the API refuses an empty body)', () => {
    expect(updateSupplierBody({ ...original, name: ' Café do Sul ' }, original)).toBeUndefined();
  });
});

describe('what the supplier form checks before sending', () => {
  it('asks for the required fields', () => {
    expect(supplierFormProblems(emptySupplierForm)).toEqual({ name: 'required', corporateName: 'required', document: 'required' });
    expect(supplierFormProblems({ ...typed, name: '   ' })).toEqual({ name: 'required' });
  });

  it('wants a CPF or a CNPJ length and leaves the check digits to the server', () => {
    expect(supplierFormProblems({ ...typed, document: '123.456' })).toEqual({ document: 'documentLength' });
    expect(supplierFormProblems({ ...typed, document: '529.982.247-26' })).toEqual({});
  });
});
