import { startEnrolment } from '../../lib/auth/mfa-enrolment';
import { totpEnrolmentView, totpStartBody } from '../../lib/auth/schemas';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routeLimit } from '../../lib/rate-limit';
import * as routes from '../../lib/routes';

export const handler = httpHandler(routes.startTotpEnrolment, { body: totpStartBody }, async ({ body, principal, request }) =>
  ok(await startEnrolment(principal, body.password, request, Date.now(), routeLimit(routes.startTotpEnrolment, 'email-and-ip'))),
);

ROUTE_DOCS: describeRoute(handler, {
  success: {
    status: 200,
    description:
      'A new secret, pending until POST /auth/mfa/totp/confirm: as an `otpauth://` URI, as base32 text and as a QR code (an SVG document drawn by the server, never by a network service).',
    body: totpEnrolmentView,
  },
  errors: {
    400: 'The body is invalid, or `password` is not the current password (a failed attempt in the login window).',
    409: 'A second factor is already on.',
  },
  description:
    'A step-up: the current password comes in the body, so an access cookie alone cannot put a second factor on an account. It is checked in the window login counts in (5 attempts per 15 minutes per e-mail and IP; 429 past it). TOTP as RFC 6238: SHA-1, 6 digits, 30-second steps. Starting again replaces a secret not confirmed yet. The secret is shown here only; once confirmed no route returns it.',
  notes: '`{ password }`; 200 `{ otpauthUri, secret, qrSvg }`; 400 wrong password; 409 already on',
  example: { body: { password: 'correct horse battery' } },
});
