/**
 * The security headers of the console's pages and files, wherever they are served: by
 * `npm start` (local/console-server.ts) and by CloudFront (infra/constructs). The console
 * loads only its own files and calls only its own origin, and deployed the imports bucket
 * (`uploadOrigins`); the TOTP QR code is shown as a data: image; React and Chart.js style
 * through the CSSOM, which the CSP allows.
 */
export function consoleCsp(uploadOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    // Deployed, an import's file is PUT to the imports bucket by a presigned link (lib/imports/storage).
    ["connect-src 'self'", ...uploadOrigins].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy where the console calls its own origin only (npm start, whose upload links are on it). */
export const CONSOLE_CSP = consoleCsp();

/** Browser features the console never uses, turned off for it and anything it could load; the camera for its own pages only (a count's barcode reader). */
export const CONSOLE_PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=(self)',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
].join(', ');

/** Every header but HSTS (which only an HTTPS origin sends). */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Permissions-Policy': CONSOLE_PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
};
