/**
 * The account page's small rules, apart from React so that they are tested alone.
 */

/**
 * The QR code the API draws (`qrSvg`, an SVG document) as an image address: the console's CSP
 * allows `data:` images, and an SVG shown through <img> runs no script.
 */
export function svgDataUrl(svg: string): string {
  const bytes = new TextEncoder().encode(svg);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** A base32 secret in groups of four, easier to type by hand (`JBSW Y3DP …`); apps ignore the spaces. */
export function groupSecret(secret: string): string {
  return (secret.replace(/\s/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * What the turn-off form sends: six digits (spaces ignored) are an authenticator code; anything
 * else is a recovery code, as typed but trimmed.
 */
export function disableBody(input: string): { code: string } | { recoveryCode: string } {
  const digits = input.replace(/\s/g, '');
  return /^\d{6}$/.test(digits) ? { code: digits } : { recoveryCode: input.trim() };
}

/** A short name for a browser's user agent: the browser and the system, or the text cut short. */
export function deviceOf(userAgent: string): string {
  if (!userAgent) return '';
  // In order: Edge and Opera also say Chrome, and Chrome also says Safari.
  // Headless Chrome says HeadlessChrome/….
  const browser = ['Edg', 'OPR', 'Firefox', 'Chrome', 'Safari'].find((name) => new RegExp(`(?:\\b|Headless)${name}/[\\d.]+`).test(userAgent));
  // In order too: Android says Linux, and an iPhone or iPad says Mac OS X.
  const system = ['Windows', 'Android', 'iPhone', 'iPad', 'CrOS', 'Mac OS X', 'Linux'].find((name) => userAgent.includes(name));
  const names: Record<string, string> = { Edg: 'Edge', OPR: 'Opera', 'Mac OS X': 'macOS', CrOS: 'ChromeOS' };
  if (browser || system) return [browser && (names[browser] ?? browser), system && (names[system] ?? system)].filter(Boolean).join(' · ');
  return userAgent.length > 40 ? `${userAgent.slice(0, 40)}…` : userAgent;
}

/** The name of a saved copy of my data: `meus-dados-2026-11-26.json`, the day as the user's clock says it. */
export function myDataFileName(prefix: string, now: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `${prefix}-${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}.json`;
}

/** What the saved file holds: the API's document as it came, indented for reading. */
export const myDataText = (data: unknown): string => `${JSON.stringify(data, null, 2)}\n`;
