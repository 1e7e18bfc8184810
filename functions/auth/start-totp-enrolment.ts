import { startEnrolment } from '../../lib/auth/mfa-enrolment';
import { totpEnrolmentView } from '../../lib/auth/schemas';
import { httpHandler, ok } from '../../lib/http/handler';
import { describeRoute } from '../../lib/http/route-docs';
import { routes } from '../../lib/routes';

export const handler = httpHandler(routes.startTotpEnrolment, {}, async ({ principal }) => ok(await startEnrolment(principal, Date.now())));

ROUTE_DOCS: describeRoute(handler, {
  success: { status: 200, description: 'A new secret, pending until POST /auth/mfa/totp/confirm: as an `otpauth://` URI, as base32 text and as a QR code (an SVG document drawn by the server, never by a network service).', body: totpEnrolmentView },
  errors: { 409: 'A second factor is already on.' },
  description: 'TOTP as RFC 6238: SHA-1, 6 digits, 30-second steps. Starting again replaces a secret not confirmed yet. The secret is shown here only; once confirmed no route returns it.',
  notes: '200 `{ otpauthUri, secret, qrSvg }`; 409 already on',
});
