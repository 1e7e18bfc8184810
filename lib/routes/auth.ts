/** The routes of identity: registration, sessions, passwords, the second factor, invitations (functions/auth/). */
import { INVITATIONS_PER_ADDRESS } from '../rate-limit';
import type { Route } from './types';
import { PASSWORD_ATTEMPTS, SIGN_IN_ATTEMPTS_PER_IP } from './limits';

export const register = {
  method: 'POST',
  path: '/auth/register',
  handler: 'functions/auth/register.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'write' },
  audits: ['user.registered', 'invitation.accepted'],
  uses: ['signing-key'],
  cpu: 'bcrypt',
  rateLimits: [SIGN_IN_ATTEMPTS_PER_IP],
  summary: 'Register a user into a tenant',
} as const satisfies Route;

export const login = {
  method: 'POST',
  path: '/auth/login',
  handler: 'functions/auth/login.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read' },
  // A sign-in past the cap of sessions also records each live session it ends.
  audits: ['auth.login', 'auth.login_failed', 'auth.mfa_challenged', 'session.evicted'],
  uses: ['signing-key'],
  cpu: 'bcrypt',
  rateLimits: [PASSWORD_ATTEMPTS, SIGN_IN_ATTEMPTS_PER_IP],
  summary: 'Log in and receive the session cookies',
} as const satisfies Route;

export const me = {
  method: 'GET',
  path: '/auth/me',
  handler: 'functions/auth/me.ts',
  auth: 'protected',
  table: { actions: [] },
  openDuringMfaEnrolment: true,
  apiKey: false,
  summary: 'The current user',
} as const satisfies Route;

export const myData = {
  method: 'GET',
  path: '/auth/me/data',
  handler: 'functions/auth/get-my-data.ts',
  auth: 'protected',
  // The recovery codes left are counted on the user item (lib/auth/my-data): no credentials item is read.
  table: { actions: ['GetItem', 'BatchGetItem', 'Query'] },
  // A whole copy reads up to thousands of items: now and then, not in a loop.
  rateLimits: [{ per: 'user', limit: 5, windowSeconds: 3600 }],
  apiKey: false,
  summary: 'Everything the service holds about the caller, as one document (LGPD Art. 19)',
} as const satisfies Route;

export const refresh = {
  method: 'POST',
  path: '/auth/refresh',
  handler: 'functions/auth/refresh.ts',
  auth: 'public',
  table: { actions: ['BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'] },
  audits: ['auth.refresh', 'auth.refresh_reuse_detected'],
  uses: ['signing-key', 'verification-keys'],
  summary: 'Rotate the refresh token and issue a new access token',
} as const satisfies Route;

export const logout = {
  method: 'POST',
  path: '/auth/logout',
  handler: 'functions/auth/logout.ts',
  auth: 'protected',
  table: { actions: ['PutItem', 'UpdateItem'] },
  audits: ['auth.logout'],
  openDuringMfaEnrolment: true,
  apiKey: false,
  summary: 'End the current session',
} as const satisfies Route;

export const listSessions = {
  method: 'GET',
  path: '/auth/sessions',
  handler: 'functions/auth/list-sessions.ts',
  auth: 'protected',
  table: { actions: ['Query'] },
  // Each session route counts apart, so reading the list never holds a revocation back.
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 60 }],
  apiKey: false,
  summary: "The caller's active sessions, newest first",
} as const satisfies Route;

export const revokeSession = {
  method: 'POST',
  path: '/auth/sessions/{id}/revoke',
  handler: 'functions/auth/revoke-session.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['session.revoked'],
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 60 }],
  idempotent: { status: 200 },
  apiKey: false,
  summary: "Revoke one of the caller's sessions",
} as const satisfies Route;

export const revokeOtherSessions = {
  method: 'POST',
  path: '/auth/sessions/revoke-others',
  handler: 'functions/auth/revoke-other-sessions.ts',
  auth: 'protected',
  table: { actions: ['Query', 'PutItem', 'UpdateItem'] },
  audits: ['session.revoked_others'],
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 60 }],
  apiKey: false,
  summary: 'End every session of the caller but the current one',
} as const satisfies Route;

export const changePassword = {
  method: 'POST',
  path: '/auth/change-password',
  handler: 'functions/auth/change-password.ts',
  auth: 'protected',
  // Its UpdateItem also counts the login throttle's attempts (the RATE# counters it shares with login).
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.password_changed'],
  uses: ['signing-key', 'mail'],
  cpu: 'bcrypt',
  rateLimits: [PASSWORD_ATTEMPTS],
  apiKey: false,
  summary: 'Change the password; every other session ends, this one goes on with fresh cookies',
} as const satisfies Route;

export const startTotpEnrolment = {
  method: 'POST',
  path: '/auth/mfa/totp',
  handler: 'functions/auth/start-totp-enrolment.ts',
  auth: 'protected',
  table: { actions: ['BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'], credentials: 'read-write' },
  audits: ['auth.mfa_enrolment_started'],
  openDuringMfaEnrolment: true,
  cpu: 'bcrypt',
  rateLimits: [PASSWORD_ATTEMPTS],
  apiKey: false,
  summary: 'Start enrolling a TOTP second factor with the current password (secret, otpauth URI and QR code)',
} as const satisfies Route;

export const confirmTotpEnrolment = {
  method: 'POST',
  path: '/auth/mfa/totp/confirm',
  handler: 'functions/auth/confirm-totp-enrolment.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.mfa_enabled'],
  uses: ['signing-key', 'mail'],
  openDuringMfaEnrolment: true,
  apiKey: false,
  summary: 'Turn the second factor on with a code; returns the recovery codes once',
} as const satisfies Route;

export const disableTotp = {
  method: 'DELETE',
  path: '/auth/mfa/totp',
  handler: 'functions/auth/disable-totp.ts',
  auth: 'protected',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.mfa_disabled'],
  uses: ['signing-key', 'mail'],
  apiKey: false,
  summary: 'Turn the second factor off with a code or a recovery code',
} as const satisfies Route;

export const verifySecondFactor = {
  method: 'POST',
  path: '/auth/mfa/verify',
  handler: 'functions/auth/verify-second-factor.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'read-write' },
  audits: ['auth.login', 'auth.mfa_recovery_code_used', 'auth.mfa_failed', 'session.evicted'],
  uses: ['signing-key'],
  rateLimits: [{ per: 'user', limit: 10, windowSeconds: 900, counts: 'attempts' }],
  summary: 'Complete a login with a TOTP code or a recovery code',
} as const satisfies Route;

export const forgotPassword = {
  method: 'POST',
  path: '/auth/forgot-password',
  handler: 'functions/auth/forgot-password.ts',
  auth: 'public',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem'], credentials: 'write' },
  audits: ['auth.password_reset_requested'],
  uses: ['mail'],
  // Per IP (every request), and per address (5 a day) so that many IPs cannot flood one mailbox.
  rateLimits: [
    { per: 'ip', limit: 3, windowSeconds: 3600 },
    { per: 'email', limit: 5, windowSeconds: 24 * 3600 },
  ],
  summary: 'E-mail a password reset link if the address exists',
} as const satisfies Route;

export const resetPassword = {
  method: 'POST',
  path: '/auth/reset-password',
  handler: 'functions/auth/reset-password.ts',
  auth: 'public',
  // The token used up (Delete), the password and the credential version (Update), the tenant checked ACTIVE in the same transaction.
  table: { actions: ['GetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem', 'DeleteItem'], credentials: 'write' },
  audits: ['auth.password_reset'],
  cpu: 'bcrypt',
  uses: ['mail'],
  summary: 'Set a new password with a reset token',
} as const satisfies Route;

export const createInvitation = {
  method: 'POST',
  path: '/auth/invitations',
  handler: 'functions/auth/create-invitation.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'] },
  audits: ['invitation.created'],
  uses: ['mail'],
  // Per inviting user, and per invited address across every way of inviting.
  rateLimits: [{ per: 'user', limit: 20, windowSeconds: 3600 }, INVITATIONS_PER_ADDRESS],
  idempotent: { status: 201 },
  apiKey: false,
  summary: "Invite an e-mail into the caller's tenant (administrators)",
} as const satisfies Route;

export const listInvitations = {
  method: 'GET',
  path: '/auth/invitations',
  handler: 'functions/auth/list-invitations.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['Query'] },
  uses: ['cursor-key'],
  apiKey: false,
  summary: "The tenant's pending invitations (administrators)",
} as const satisfies Route;

export const withdrawInvitation = {
  method: 'DELETE',
  path: '/auth/invitations/{id}',
  handler: 'functions/auth/withdraw-invitation.ts',
  auth: 'protected',
  admin: 'tenant',
  table: { actions: ['PutItem', 'DeleteItem'], indexes: ['gsi1'] },
  audits: ['invitation.withdrawn'],
  apiKey: false,
  summary: 'Withdraw a pending invitation (administrators)',
} as const satisfies Route;
