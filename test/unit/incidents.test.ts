import { describe, expect, it } from 'vitest';
import { newIncident, notificationDeadline } from '../../lib/privacy/model';
import { incidentInputOf, notificationOf } from '../../lib/privacy/register';

/** The incident register's model (lib/privacy/model) and the command line's input (lib/privacy/register). */
const SAO_PAULO = 'America/Sao_Paulo';

describe('notificationDeadline', () => {
  it.each([
    ['a Monday: the Thursday', '2026-11-23T15:00:00.000Z', '2026-11-26'],
    ['a Friday: the Wednesday after the weekend', '2026-11-27T15:00:00.000Z', '2026-12-02'],
    ['a Saturday: the Wednesday', '2026-11-28T15:00:00.000Z', '2026-12-02'],
    ["Thursday 22:00 in São Paulo (Friday in UTC): Thursday's count", '2026-11-27T01:00:00.000Z', '2026-12-01'],
  ])('counts 3 business days from %s', (_name, detectedAt, expected) => {
    expect(notificationDeadline(detectedAt, SAO_PAULO)).toBe(expected);
  });
});

describe('incidentInputOf', () => {
  const valid = {
    summary: '  Exported CSV mailed to the wrong customer  ',
    'detected-at': '2026-11-23T15:00:00.000Z',
    categories: 'names, e-mail addresses,, ',
    holders: '12',
  };

  it('reads the options: trimmed summary, categories split on commas, holders a whole number, not notified when not said', () => {
    expect(incidentInputOf(valid)).toEqual({
      input: {
        summary: 'Exported CSV mailed to the wrong customer',
        detectedAt: '2026-11-23T15:00:00.000Z',
        categories: ['names', 'e-mail addresses'],
        holders: 12,
        notifiedAt: null,
      },
    });
    expect(incidentInputOf({ ...valid, 'notified-at': '2026-11-24T10:00:00.000Z' })).toMatchObject({ input: { notifiedAt: '2026-11-24T10:00:00.000Z' } });
  });

  it('names each option that is wrong or missing', () => {
    const outcome = incidentInputOf({ summary: ' ', 'detected-at': 'yesterday', categories: ' , ', holders: '1.5', 'notified-at': '2026-13-01' });
    expect(outcome).toEqual({
      problems: [
        expect.stringMatching(/^--summary: /),
        expect.stringMatching(/^--detected-at: /),
        expect.stringMatching(/^--categories: /),
        expect.stringMatching(/^--holders: /),
        expect.stringMatching(/^--notified-at: /),
      ],
    });
    expect(incidentInputOf({})).toEqual({
      problems: [
        expect.stringMatching(/^--summary: /),
        expect.stringMatching(/^--detected-at: /),
        expect.stringMatching(/^--categories: /),
        expect.stringMatching(/^--holders: /),
      ],
    });
  });
});

describe('newIncident', () => {
  it('stamps the recording instant and the notification deadline', () => {
    const input = { summary: 'S', detectedAt: '2026-11-27T15:00:00.000Z', categories: ['IP addresses'], holders: 3, notifiedAt: null };
    expect(newIncident(input, '0d3c5a54-8f5e-4f7a-9d0e-2b1c3a4d5e6f', Date.parse('2026-11-27T16:00:00.000Z'), SAO_PAULO)).toEqual({
      ...input,
      id: '0d3c5a54-8f5e-4f7a-9d0e-2b1c3a4d5e6f',
      recordedAt: '2026-11-27T16:00:00.000Z',
      notifyBy: '2026-12-02',
    });
  });
});

describe('instants', () => {
  it('keeps them as toISOString writes them, so the register sorts by time', () => {
    const incident = newIncident(
      { summary: 'S', detectedAt: '2026-11-27T15:00:00Z', categories: ['names'], holders: 1, notifiedAt: '2026-11-28T09:00:00Z' },
      '0d3c5a54-8f5e-4f7a-9d0e-2b1c3a4d5e6f',
      0,
      SAO_PAULO,
    );
    expect([incident.detectedAt, incident.notifiedAt]).toEqual(['2026-11-27T15:00:00.000Z', '2026-11-28T09:00:00.000Z']);
    expect(notificationOf({ id: incident.id, 'detected-at': '2026-11-27T15:00:00Z', 'notified-at': '2026-11-28T09:00:00Z' })).toMatchObject({
      detectedAt: '2026-11-27T15:00:00.000Z',
    });
  });
});

describe('notificationOf', () => {
  it('reads which incident was notified and when, or names each option that is wrong', () => {
    const id = '0d3c5a54-8f5e-4f7a-9d0e-2b1c3a4d5e6f';
    expect(notificationOf({ id, 'detected-at': '2026-11-27T15:00:00.000Z', 'notified-at': '2026-11-30T10:00:00.000Z' })).toEqual({
      id,
      detectedAt: '2026-11-27T15:00:00.000Z',
      notifiedAt: '2026-11-30T10:00:00.000Z',
    });
    expect(notificationOf({ id: 'x', 'notified-at': 'monday' })).toEqual({
      problems: [
        '--id: must be the id `list` shows',
        "--detected-at: must be the incident's, as `list` shows it",
        '--notified-at: must be an ISO 8601 instant',
      ],
    });
  });
});
