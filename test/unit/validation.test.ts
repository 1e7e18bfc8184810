import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationError } from '../../lib/errors';
import { fieldErrors, parseWith } from '../../lib/domain/validation';
import { createTenantBody } from '../../lib/tenants/schemas';

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

describe('fieldErrors', () => {
  it('lists every unknown key as its own field with "unknown field"', () => {
    const result = createTenantBody.safeParse({ name: 'acme', plan: 'STARTER', status: 'ACTIVE', id: 'x' });

    expect(result.success).toBe(false);
    expect(fieldErrors(result.error!)).toEqual([
      { field: 'status', message: 'unknown field' },
      { field: 'id', message: 'unknown field' },
    ]);
  });

  it('names nested unknown keys by their path', () => {
    const schema = z.strictObject({ address: z.strictObject({ city: z.string() }) });

    const result = schema.safeParse({ address: { city: 'Recife', planet: 'Earth' } });

    expect(fieldErrors(result.error!)).toEqual([{ field: 'address.planet', message: 'unknown field' }]);
  });

  it('names each invalid field by its path, with its message', () => {
    const result = createTenantBody.safeParse({ name: 'Not A Slug', plan: 'GOLD', document: '52998224726' });

    expect(fieldErrors(result.error!)).toEqual([
      { field: 'name', message: 'must be a slug: lower-case letters and digits joined by single dashes' },
      { field: 'plan', message: 'must be one of STARTER, PROFESSIONAL, ENTERPRISE' },
      { field: 'document', message: 'check digits do not match' },
    ]);
  });

  it('puts the prefix in front of every field', () => {
    const result = z.strictObject({ page: z.coerce.number().int().min(1, 'must be at least 1') }).safeParse({ page: '0', sort: 'name' });

    expect(fieldErrors(result.error!, 'query')).toEqual([
      { field: 'query.page', message: 'must be at least 1' },
      { field: 'query.sort', message: 'unknown field' },
    ]);
  });
});

describe('parseWith', () => {
  it('returns the parsed output', () => {
    expect(parseWith(createTenantBody, { name: 'acme', plan: 'STARTER', document: '12abc34501de35' })).toEqual({
      name: 'acme',
      plan: 'STARTER',
      document: '12ABC34501DE35',
    });
  });

  it('throws a ValidationError listing every problem', () => {
    const error = thrownBy(() => parseWith(createTenantBody, { plan: 'STARTER', color: 'red' }));

    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({
      status: 400,
      errors: [
        { field: 'name', message: 'is required' },
        { field: 'color', message: 'unknown field' },
      ],
    });
  });
});
