import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS as API_AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES } from '../../lib/audit/model';
import { AUDIT_ACTIONS, auditQuery, changesText, filterCount, isShortPage, NO_FILTERS, RESOURCE_TYPES } from '../src/pages/audit/logic';
import { pageOfStack } from '../src/components/useCursorStack';

describe('the audit trail query', () => {
  it('holds only the filters given', () => {
    expect(auditQuery(NO_FILTERS, undefined, 25)).toEqual({ limit: 25 });
    expect(auditQuery({ ...NO_FILTERS, action: 'user.role_changed', actorId: ' system ' }, 'c1', 10)).toEqual({
      limit: 10,
      action: 'user.role_changed',
      actorId: 'system',
      cursor: 'c1',
    });
  });
  it('passes days as days, and drops what the API would refuse', () => {
    expect(auditQuery({ ...NO_FILTERS, from: '2026-11-01', to: '2026-11-30' }, undefined, 5)).toEqual({ limit: 5, from: '2026-11-01', to: '2026-11-30' });
    expect(auditQuery({ ...NO_FILTERS, action: 'not.an.action', resourceType: 'planet', from: '01/11/2026' }, undefined, 5)).toEqual({ limit: 5 });
    expect(auditQuery({ ...NO_FILTERS, resourceType: 'invitation' }, undefined, 5)).toEqual({ limit: 5, resourceType: 'invitation' });
  });
  it('counts the filters', () => {
    expect(filterCount(NO_FILTERS)).toBe(0);
    expect(filterCount({ ...NO_FILTERS, action: 'auth.login', from: '2026-11-01', actorId: '  ' })).toBe(2);
  });
  it("knows every action and resource type of the trail: the API's own lists", () => {
    expect([...AUDIT_ACTIONS].sort()).toEqual([...API_AUDIT_ACTIONS].sort());
    expect([...RESOURCE_TYPES].sort()).toEqual([...AUDIT_RESOURCE_TYPES].sort());
  });
});

describe('a short page', () => {
  it('is one with fewer entries than asked while a next page exists', () => {
    expect(isShortPage(3, 25, 'next')).toBe(true);
    expect(isShortPage(0, 25, 'next')).toBe(true);
    expect(isShortPage(25, 25, 'next')).toBe(false);
    expect(isShortPage(3, 25, null)).toBe(false);
  });
});

describe('an entry’s changes', () => {
  it('are one line of field: before → after', () => {
    expect(changesText(null)).toBe('');
    expect(changesText([])).toBe('');
    expect(
      changesText([
        { field: 'role', before: 'MEMBER', after: 'ADMIN' },
        { field: 'email', before: null, after: 'a@b.c' },
      ]),
    ).toBe('role: "MEMBER" → "ADMIN"; email: null → "a@b.c"');
  });
});

describe('cursor paging', () => {
  it('numbers the page by the cursors followed', () => {
    expect(pageOfStack([])).toBe(1);
    expect(pageOfStack(['a', 'b'])).toBe(3);
  });
});

describe('the audit trail in words', () => {
  it('names every action and resource type in both languages, and shows an unknown code as it is', async () => {
    const { auditLabels } = await import('../src/pages/audit/audit-labels');
    for (const locale of ['pt-BR', 'en'] as const) {
      for (const action of AUDIT_ACTIONS) expect(auditLabels[locale].action(action)).not.toBe(action);
      for (const type of RESOURCE_TYPES) expect(auditLabels[locale].resourceType(type)).not.toBe(type);
      expect(auditLabels[locale].action('future.action')).toBe('future.action');
    }
  });
});
