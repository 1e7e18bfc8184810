import { parseCookie } from 'cookie';

/** The header-carrying part of a proxy event or an authorizer REQUEST event. */
export interface HeaderSource {
  headers?: Record<string, string | undefined> | null;
  multiValueHeaders?: Record<string, string[] | undefined> | null;
}

/** Case-insensitive header read over a proxy event (clients send any casing). */
export function header(event: HeaderSource, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() === wanted) return headers[key];
  }
  return undefined;
}

/** The request cookies; several Cookie headers are joined as browsers and proxies may split them. */
export function cookies(event: HeaderSource): Record<string, string> {
  const values: string[] = [];
  for (const [key, list] of Object.entries(event.multiValueHeaders ?? {})) {
    if (key.toLowerCase() === 'cookie' && list) values.push(...list);
  }
  if (values.length === 0) {
    const single = header(event, 'cookie');
    if (single) values.push(single);
  }
  const parsed = parseCookie(values.join('; '));
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== undefined) result[key] = value;
  return result;
}
