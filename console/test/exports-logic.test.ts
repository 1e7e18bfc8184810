import { describe, expect, it } from 'vitest';
import { defaultPeriod, pollInterval, POLL_MS, startBody } from '../src/pages/exports/logic';

describe('the export page', () => {
  it('sends a period only with the kinds that take one, an empty date as it is for the API to name', () => {
    expect(startBody('suppliers', '2026-01-01', '2026-01-31')).toEqual({ kind: 'suppliers' });
    expect(startBody('products', '2026-01-01', '2026-01-31')).toEqual({ kind: 'products' });
    expect(startBody('stock-history', '2026-01-01', '2026-01-31')).toEqual({ kind: 'stock-history', from: '2026-01-01', to: '2026-01-31' });
    expect(startBody('audit', '', '2026-01-31')).toEqual({ kind: 'audit', from: '', to: '2026-01-31' });
  });

  it('follows a queued or running job, and stops once it is done or failed', () => {
    expect([pollInterval({ status: 'queued' }), pollInterval({ status: 'running' }), pollInterval({ status: 'done' }), pollInterval({ status: 'failed' }), pollInterval(undefined)]).toEqual([POLL_MS, POLL_MS, false, false, false]);
  });

  it('starts with the last 30 days, today included', () => {
    expect(defaultPeriod('2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });
});
