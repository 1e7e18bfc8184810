import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayOf, dayStartMs } from '../../lib/domain/days';

describe('dayStartMs', () => {
  it.each([
    ['a São Paulo day (UTC−3)', '2026-11-23', 'America/Sao_Paulo', '2026-11-23T03:00:00.000Z'],
    ['a São Paulo day that began at 01:00 (daylight saving started at midnight)', '2018-11-04', 'America/Sao_Paulo', '2018-11-04T03:00:00.000Z'],
    ['a Berlin day of a daylight-saving change', '2026-03-29', 'Europe/Berlin', '2026-03-28T23:00:00.000Z'],
    ['a day in the earliest zone (UTC+14)', '2026-01-01', 'Pacific/Kiritimati', '2025-12-31T10:00:00.000Z'],
    ['a day in the latest zone (UTC−12)', '2026-01-01', 'Etc/GMT+12', '2026-01-01T12:00:00.000Z'],
    ['a UTC day', '2026-01-01', 'UTC', '2026-01-01T00:00:00.000Z'],
  ])('finds the first instant of %s', (_name, day, timeZone, expected) => {
    expect(new Date(dayStartMs(day, timeZone)).toISOString()).toBe(expected);
  });

  it('is the first instant whose business day is the day, for any day and zone', () => {
    const zones = ['America/Sao_Paulo', 'America/Manaus', 'America/Noronha', 'Europe/Lisbon', 'Asia/Kolkata', 'Australia/Lord_Howe'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 365 * 60 }), fc.constantFrom(...zones), (offset, timeZone) => {
        const day = addDays('2000-01-01', offset);
        const start = dayStartMs(day, timeZone);
        expect([dayOf(start - 1, timeZone), dayOf(start, timeZone)]).toEqual([addDays(day, -1), day]);
      }),
    );
  });
});
