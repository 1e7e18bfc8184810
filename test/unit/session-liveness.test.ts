import { describe, expect, it } from 'vitest';
import { isSessionLive, MAX_SESSIONS_PER_USER, type CredentialFacts, type SessionFacts } from '../../lib/domain/session-liveness';

/**
 * The one rule of a live session (lib/domain/session-liveness), shared by the authorizer,
 * refresh, the session list, the revocations and the cap of sessions: active, before its
 * absolute expiry, and opened at the user's credential version; a session older than versions
 * is judged by the older rule, not before `sessionsValidFrom`.
 */
const NOW = Date.parse('2026-11-21T23:15:00.000Z');
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();
const HOUR = 3_600_000;

const session = (overrides: Partial<SessionFacts> = {}): SessionFacts => ({
  status: 'ACTIVE',
  expiresAt: at(HOUR),
  createdAt: at(-HOUR),
  credentialVersion: 2,
  ...overrides,
});
const user = (overrides: Partial<CredentialFacts> = {}): CredentialFacts => ({ credentialVersion: 2, sessionsValidFrom: null, ...overrides });

describe('isSessionLive', () => {
  it("is live when active, unexpired and at the user's credential version", () => {
    expect(isSessionLive(session(), user(), NOW)).toBe(true);
  });

  it('is dead once revoked', () => {
    expect(isSessionLive(session({ status: 'REVOKED' }), user(), NOW)).toBe(false);
  });

  it('is dead from its absolute expiry on (the instant itself included), whatever the TTL has not removed yet', () => {
    expect(isSessionLive(session({ expiresAt: at(1) }), user(), NOW)).toBe(true);
    expect(isSessionLive(session({ expiresAt: at(0) }), user(), NOW)).toBe(false);
    expect(isSessionLive(session({ expiresAt: at(-HOUR) }), user(), NOW)).toBe(false);
  });

  describe('the version rule', () => {
    it("is dead at any other version than the user's, earlier or later", () => {
      expect(isSessionLive(session({ credentialVersion: 1 }), user(), NOW)).toBe(false);
      expect(isSessionLive(session({ credentialVersion: 3 }), user(), NOW)).toBe(false);
    });

    it('is decided by the version alone, whatever the clocks say of sessionsValidFrom', () => {
      // Opened an hour before the last change's sessionsValidFrom, but at the version that change set.
      expect(isSessionLive(session(), user({ sessionsValidFrom: at(-HOUR / 2) }), NOW)).toBe(true);
      // Opened after sessionsValidFrom, but at a version since moved on.
      expect(isSessionLive(session({ credentialVersion: 1, createdAt: at(-60_000) }), user({ sessionsValidFrom: at(-HOUR) }), NOW)).toBe(false);
    });

    it('holds version 0 like any other (a user older than versions, read as 0)', () => {
      expect(isSessionLive(session({ credentialVersion: 0 }), user({ credentialVersion: 0 }), NOW)).toBe(true);
      expect(isSessionLive(session({ credentialVersion: 0 }), user({ credentialVersion: 1 }), NOW)).toBe(false);
    });

    it('still refuses a revoked or expired session at the right version', () => {
      expect(isSessionLive(session({ status: 'REVOKED' }), user(), NOW)).toBe(false);
      expect(isSessionLive(session({ expiresAt: at(-1) }), user(), NOW)).toBe(false);
    });
  });

  describe('the legacy rule, for a session older than versions (no credentialVersion)', () => {
    it.each([
      ['absent', undefined],
      ['null', null],
    ])("with a version %s: live when the user never reset (sessionsValidFrom null), whatever the user's version", (_label, version) => {
      expect(isSessionLive(session({ credentialVersion: version }), user({ credentialVersion: 5 }), NOW)).toBe(true);
    });

    it('is dead when opened before sessionsValidFrom, live when opened at it or after', () => {
      const validFrom = at(-HOUR);
      expect(isSessionLive(session({ credentialVersion: undefined, createdAt: at(-HOUR - 1) }), user({ sessionsValidFrom: validFrom }), NOW)).toBe(false);
      expect(isSessionLive(session({ credentialVersion: undefined, createdAt: validFrom }), user({ sessionsValidFrom: validFrom }), NOW)).toBe(true);
      expect(isSessionLive(session({ credentialVersion: undefined, createdAt: at(-1000) }), user({ sessionsValidFrom: validFrom }), NOW)).toBe(true);
    });

    it('still refuses a revoked or expired legacy session', () => {
      expect(isSessionLive(session({ credentialVersion: undefined, status: 'REVOKED' }), user(), NOW)).toBe(false);
      expect(isSessionLive(session({ credentialVersion: undefined, expiresAt: at(0) }), user(), NOW)).toBe(false);
    });
  });
});

describe('the cap of sessions per user', () => {
  it('is 50', () => {
    expect(MAX_SESSIONS_PER_USER).toBe(50);
  });
});
