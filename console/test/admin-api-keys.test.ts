import { describe, expect, it } from 'vitest';
import type { components } from '@backoffice/client';
import { endOfDayIso } from '../src/format/date';
import {
  companyOf,
  createKeyBody,
  dayOf,
  EMPTY_KEY_FORM,
  isExpired,
  keyFormProblems,
  LEVELS_OF,
  previousSecretOf,
  rollHoursOf,
  withLevel,
  type CreateKeyBody,
  type KeyForm,
} from '../src/pages/api-keys/api-keys';

/** Checked when compiled: the body the form builds is one POST /api-keys takes. */
export const BODY_FITS: components['schemas']['CreateApiKeyRequest'] = {} as CreateKeyBody;

const form = (changes: Partial<KeyForm> = {}): KeyForm => ({ ...EMPTY_KEY_FORM, ...changes });
const endOfDay = (day: string) => `${day}T23:59:59.999-03:00`;

describe('the new key’s body', () => {
  it('holds the trimmed name and the granted resources only', () => {
    const typed = withLevel(withLevel(form({ name: '  PDV Loja Centro ' }), 'inventory', 'write'), 'dashboards', 'read');
    expect(createKeyBody(typed, endOfDay)).toEqual({ name: 'PDV Loja Centro', scopes: { inventory: 'write', dashboards: 'read' } });
  });

  it('sends the expiry as the end of the chosen day, with its offset', () => {
    const typed = withLevel(form({ name: 'ERP', expiresOn: '2030-01-31' }), 'suppliers', 'read');
    expect(createKeyBody(typed, endOfDay).expiresAt).toBe('2030-01-31T23:59:59.999-03:00');
    expect(createKeyBody({ ...typed, expiresOn: '' }, endOfDay)).not.toHaveProperty('expiresAt');
    // The console's helper: the last millisecond of that day in the browser's zone, as an ISO instant.
    expect(Date.parse(createKeyBody(typed, endOfDayIso).expiresAt ?? '')).toBe(new Date(2030, 0, 31, 23, 59, 59, 999).getTime());
  });

  it('limits to a company only with companies read or write', () => {
    const limited = withLevel(form({ name: 'Loja', companyId: 'c1' }), 'companies', 'read');
    expect(createKeyBody(limited, endOfDay)).toEqual({ name: 'Loja', scopes: { companies: 'read' }, companyId: 'c1' });
    const dropped = withLevel(limited, 'companies', 'none');
    expect(dropped.companyId).toBe('');
    expect(createKeyBody({ ...dropped, companyId: 'c1' }, endOfDay)).not.toHaveProperty('companyId');
  });

  it('offers write only where the API has it', () => {
    expect(LEVELS_OF.dashboards).toEqual(['none', 'read']);
    expect(LEVELS_OF.audit).toEqual(['none', 'read']);
    expect(withLevel(form(), 'audit', 'write').scopes.audit).toBe('none');
    expect(LEVELS_OF.inventory).toEqual(['none', 'read', 'write']);
  });

  it('asks for a name and one grant before sending', () => {
    expect(keyFormProblems(form())).toEqual({ name: 'required', scopes: 'grantOne' });
    expect(keyFormProblems(withLevel(form({ name: ' ' }), 'audit', 'read'))).toEqual({ name: 'required' });
    expect(keyFormProblems(withLevel(form({ name: 'x' }), 'audit', 'read'))).toEqual({});
  });
});

describe('the roll’s hours', () => {
  it('are a whole number from 0 to 168', () => {
    expect(rollHoursOf('0')).toBe(0);
    expect(rollHoursOf(' 24 ')).toBe(24);
    expect(rollHoursOf('168')).toBe(168);
    for (const wrong of ['', '169', '-1', '1.5', '1,5', '24h', '1e2']) expect(rollHoursOf(wrong)).toBeUndefined();
  });
});

describe('a listed key', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('tells whether its previous secret still works', () => {
    expect(previousSecretOf({ rolledAt: null, previousSecretExpiresAt: null }, now)).toEqual({ kind: 'never' });
    expect(previousSecretOf({ rolledAt: '2026-11-25T11:00:00Z', previousSecretExpiresAt: '2026-11-26T11:00:00Z' }, now)).toEqual({
      kind: 'works',
      until: '2026-11-26T11:00:00Z',
    });
    expect(previousSecretOf({ rolledAt: '2026-11-25T11:00:00Z', previousSecretExpiresAt: null }, now)).toEqual({ kind: 'stopped' });
    // The overlap ended after the list was read.
    expect(previousSecretOf({ rolledAt: '2026-11-24T11:00:00Z', previousSecretExpiresAt: '2026-11-25T11:00:00Z' }, now)).toEqual({ kind: 'stopped' });
  });

  it('is expired from its expiry on', () => {
    expect(isExpired(null, now)).toBe(false);
    expect(isExpired('2026-11-25T12:00:00Z', now)).toBe(true);
    expect(isExpired('2026-11-25T12:00:01Z', now)).toBe(false);
  });

  it('names its company when the company is known, else shows the id', () => {
    const companies = [{ id: 'c1', name: 'Loja Centro' }];
    expect(companyOf(null, companies)).toBeUndefined();
    expect(companyOf('c1', companies)).toEqual({ name: 'Loja Centro', known: true });
    expect(companyOf('c2', companies)).toEqual({ name: 'c2', known: false });
    expect(companyOf('c1', undefined)).toEqual({ name: 'c1', known: false });
  });
});

describe('the expiry input’s earliest day', () => {
  it('is the local day as a date input writes it', () => {
    expect(dayOf(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
