import { describe, expect, it } from 'vitest';
import { defaultPeriod, pollInterval, POLL_MS, startBody } from '../src/pages/exports/logic';

describe('the export page', () => {
  it('sends a period only with the kinds that take one, an empty date as it is for the API to name', () => {
    expect(startBody('suppliers', '2026-01-01', '2026-01-31')).toEqual({ kind: 'suppliers' });
    expect(startBody('products', '2026-01-01', '2026-01-31')).toEqual({ kind: 'products' });
    expect(startBody('stock-history', '2026-01-01', '2026-01-31')).toEqual({ kind: 'stock-history', from: '2026-01-01', to: '2026-01-31' });
    expect(startBody('audit', '', '2026-01-31')).toEqual({ kind: 'audit', from: '', to: '2026-01-31' });
  });

  it('follows a queued or running job, reads a done one again when its link expires, and leaves a failed one', () => {
    expect([
      pollInterval({ status: 'queued', download: null }),
      pollInterval({ status: 'running', download: null }),
      pollInterval({ status: 'done', download: null }),
      pollInterval({ status: 'failed', download: null }),
      pollInterval(undefined),
    ]).toEqual([POLL_MS, POLL_MS, false, false, false]);
    // A done job is read again when its link expires, for a fresh one; an expired one, at the next tick.
    const download = { url: '/local-downloads/x', fileName: 'fornecedores.csv', expiresAt: '2026-11-26T12:15:00.000Z' };
    const now = Date.parse('2026-11-26T12:00:00.000Z');
    expect([pollInterval({ status: 'done', download }, now), pollInterval({ status: 'done', download }, now + 20 * 60_000)]).toEqual([15 * 60_000, POLL_MS]);
  });

  it('starts with the last 30 days, today included', () => {
    expect(defaultPeriod('2026-03-01')).toEqual({ from: '2026-01-31', to: '2026-03-01' });
  });
});
