import { describe, expect, it } from 'vitest';
import { fromAuthorizerContext, toAuthorizerContext, type Principal } from '../../lib/auth/principal';
import { Unauthorized } from '../../lib/errors';

const principal: Principal = {
  kind: 'user',
  tenantId: '6f1c1f0e-3f5a-4b8e-9a52-0c3f9d2b7a10',
  userId: 'a3d2c4b1-8e7f-4a6b-9c5d-1e2f3a4b5c6d',
  sessionId: '0b9e8d7c-6f5a-4e3d-8c2b-1a0f9e8d7c6b',
  jti: 'f0e1d2c3-b4a5-4968-8776-655443322110',
  role: 'ADMIN',
  platformAdmin: true,
  name: 'Ana Souza',
  email: 'ana@acme.example',
  tokenExpiresAt: 1_795_000_900,
  sessionsValidFrom: '2026-11-20T10:00:00.000Z',
  credentialVersion: 7,
  mfaEnrolmentRequired: false,
};

describe('authorizer context', () => {
  it('turns every value of the principal into a string', () => {
    expect(toAuthorizerContext(principal)).toEqual({
      kind: 'user',
      tenantId: principal.tenantId,
      userId: principal.userId,
      sessionId: principal.sessionId,
      jti: principal.jti,
      role: 'ADMIN',
      platformAdmin: 'true',
      name: 'Ana Souza',
      email: 'ana@acme.example',
      tokenExpiresAt: '1795000900',
      sessionsValidFrom: '2026-11-20T10:00:00.000Z',
      credentialVersion: '7',
      mfaEnrolmentRequired: 'false',
    });
  });

  it('passes "never reset" as an empty string, since API Gateway takes no null', () => {
    expect(toAuthorizerContext({ ...principal, sessionsValidFrom: null }).sessionsValidFrom).toBe('');
  });

  it('passes credential version 0 (a user older than versions) as "0", and reads it back as 0', () => {
    const context = toAuthorizerContext({ ...principal, credentialVersion: 0 });

    expect(context.credentialVersion).toBe('0');
    expect(fromAuthorizerContext(context)).toMatchObject({ kind: 'user', credentialVersion: 0 });
  });

  it('reads the principal back from the strings API Gateway hands over', () => {
    expect(fromAuthorizerContext(toAuthorizerContext(principal))).toEqual(principal);
    expect(fromAuthorizerContext(toAuthorizerContext({ ...principal, sessionsValidFrom: null }))).toEqual({ ...principal, sessionsValidFrom: null });
  });

  it('reads numbers and booleans as the local emulator may pass them', () => {
    const context = { ...toAuthorizerContext(principal), platformAdmin: false, tokenExpiresAt: 1_795_000_900, credentialVersion: 7 };

    expect(fromAuthorizerContext(context)).toEqual({ ...principal, platformAdmin: false });
  });

  it.each([
    ['no context', null],
    ['an empty context', {}],
    ['an empty userId', { ...toAuthorizerContext(principal), userId: '' }],
    ['an unknown role', { ...toAuthorizerContext(principal), role: 'ROOT' }],
    ['an object value', { ...toAuthorizerContext(principal), tenantId: { forged: true } }],
    ['no credential version (a context from before versions)', { ...toAuthorizerContext(principal), credentialVersion: undefined }],
    ['an empty credential version', { ...toAuthorizerContext(principal), credentialVersion: '' }],
  ])('refuses %s with Unauthorized', (_label, context) => {
    expect(() => fromAuthorizerContext(context)).toThrow(Unauthorized);
  });
});
