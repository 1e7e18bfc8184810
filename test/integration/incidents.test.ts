import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, expect, inject, it } from 'vitest';
import { db, tableName } from '../../lib/db/client';
import { keys } from '../../lib/db/keys';
import { INCIDENT_RETENTION_DAYS } from '../../lib/privacy/model';
import { readRegister, recordIncident, recordNotification } from '../../lib/privacy/register';
import { settings } from '../../lib/settings';
import { useLocalStoreInProcess } from './api';

/**
 * The incident register (`npm run incident`, lib/privacy/register): platform items kept 5
 * years by TTL, listed newest detection first. In process against the tests' store; the
 * command's refusals, which write nothing, through the command itself.
 */
beforeAll(useLocalStoreInProcess);

it('registers incidents, kept 5 years after they were recorded, and lists them newest detection first', async () => {
  const NOW = Date.parse('2026-11-27T16:00:00.000Z');
  const first = await recordIncident(
    {
      summary: 'Backup bucket briefly public',
      detectedAt: '2026-11-20T12:00:00.000Z',
      categories: ['names', 'e-mail addresses'],
      holders: 40,
      notifiedAt: '2026-11-24T09:00:00.000Z',
    },
    NOW,
    settings.businessTimeZone,
  );
  const second = await recordIncident(
    { summary: 'Laptop with an export stolen', detectedAt: '2026-11-27T15:00:00.000Z', categories: ['IP addresses'], holders: 3, notifiedAt: null },
    NOW,
    settings.businessTimeZone,
  );

  expect(second).toEqual({
    id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    summary: 'Laptop with an export stolen',
    detectedAt: '2026-11-27T15:00:00.000Z',
    categories: ['IP addresses'],
    holders: 3,
    notifiedAt: null,
    recordedAt: '2026-11-27T16:00:00.000Z',
    notifyBy: '2026-12-02',
  });
  const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.incident(second.detectedAt, second.id), ConsistentRead: true }));
  expect(stored.Item).toEqual({
    ...keys.incident(second.detectedAt, second.id),
    type: 'Incident',
    ...second,
    ttl: NOW / 1000 + INCIDENT_RETENTION_DAYS * 86_400,
  });

  const register = await readRegister();
  expect(register.filter((incident) => [first.id, second.id].includes(incident.id))).toEqual([second, first]);

  // Notified later: noted on the incident; an incident the register does not have is refused.
  expect(await recordNotification({ id: second.id, detectedAt: second.detectedAt, notifiedAt: '2026-11-30T10:00:00.000Z' })).toBe(true);
  expect(await recordNotification({ id: second.id, detectedAt: first.detectedAt, notifiedAt: '2026-11-30T10:00:00.000Z' })).toBe(false);
  expect((await readRegister()).filter((incident) => [first.id, second.id].includes(incident.id))).toEqual([
    { ...second, notifiedAt: '2026-11-30T10:00:00.000Z' },
    first,
  ]);
});

it('refuses a record with a bad option, naming it, and writes nothing', () => {
  const before = spawnSync(
    join('node_modules', '.bin', 'tsx'),
    ['scripts/incident.ts', 'record', '--summary', 'S', '--detected-at', 'yesterday', '--categories', 'names', '--holders', 'many'],
    {
      env: { ...process.env, DATA_DIR: inject('dataDir'), NODE_NO_WARNINGS: '1' },
      encoding: 'utf8',
    },
  );
  expect(before.status).toBe(2);
  expect(before.stderr).toContain('--detected-at: ');
  expect(before.stderr).toContain('--holders: ');
  expect(before.stderr).toContain('usage: npm run incident -- record');
  expect(before.stdout).toBe('');
});
