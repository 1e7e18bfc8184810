import { afterEach, describe, expect, it } from 'vitest';
import { config, resetConfig, storeConfig } from '../../lib/config';
import { settings } from '../../lib/settings';

const saved = { ...process.env };

function withEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
  resetConfig();
});

describe('config', () => {
  it('parses the test environment, with numbers and lists typed', () => {
    expect(config()).toMatchObject({
      TABLE_NAME: 'test-table',
      ACCESS_TOKEN_TTL_SECONDS: settings.accessTokenSeconds,
      REFRESH_TOKEN_TTL_SECONDS: settings.refreshTokenSeconds,
      REMEMBER_ME_TTL_SECONDS: settings.rememberMeSeconds,
      ALLOWED_ORIGINS: ['https://app.example.com'],
      BCRYPT_COST: settings.bcryptCost,
      PATH_PREFIX: '',
    });
  });

  it('splits and trims a list of allowed origins', () => {
    withEnv({ ALLOWED_ORIGINS: 'https://app.example.com, https://admin.example.com ,' });

    expect(config().ALLOWED_ORIGINS).toEqual(['https://app.example.com', 'https://admin.example.com']);
  });

  it('fails loudly, naming every missing or malformed variable', () => {
    withEnv({ TABLE_NAME: undefined, BCRYPT_COST: '4', PATH_PREFIX: 'prod' });

    expect(() => config()).toThrow(/^Invalid configuration: .*TABLE_NAME.*BCRYPT_COST.*PATH_PREFIX/);
  });

  it('reads the retention periods in days: the audit entries and, shorter, their access records (IP address, User-Agent)', () => {
    expect(storeConfig()).toMatchObject({
      AUDIT_RETENTION_DAYS: settings.auditRetentionDays,
      ACCESS_RECORD_RETENTION_DAYS: settings.accessRecordRetentionDays,
    });
    expect(settings.accessRecordRetentionDays).toBe(183);
  });

  it("fails loudly without the access records' retention, or with one of 0 days", () => {
    withEnv({ ACCESS_RECORD_RETENTION_DAYS: undefined });
    expect(() => storeConfig()).toThrow(/^Invalid configuration: ACCESS_RECORD_RETENTION_DAYS: Invalid input$/);

    withEnv({ ACCESS_RECORD_RETENTION_DAYS: '0' });
    expect(() => storeConfig()).toThrow(/ACCESS_RECORD_RETENTION_DAYS: Invalid input: must be an integer from 1 to 3650/);
  });

  it('refuses the outbox transport without an outbox folder', () => {
    withEnv({ MAIL_TRANSPORT: 'outbox', OUTBOX_DIR: undefined });

    expect(() => config()).toThrow('Invalid configuration: OUTBOX_DIR is required when MAIL_TRANSPORT=outbox');
  });

  it('refuses a wildcard allowed origin', () => {
    withEnv({ ALLOWED_ORIGINS: '*' });

    expect(() => config()).toThrow(/ALLOWED_ORIGINS/);
  });
});
