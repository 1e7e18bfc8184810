import { config } from '../config';

/**
 * A page of the web application for an e-mail link: `page` resolved under APP_URL, which is
 * the console's base (`https://host/console` on AWS, `http://127.0.0.1:3000/console` locally)
 * or any front end's root. APP_URL's own path is kept: `reset-password` under
 * `https://host/console` is `https://host/console/reset-password`.
 */
export function appLink(page: string, query: Record<string, string>): string {
  const base = config().APP_URL;
  const link = new URL(page, base.endsWith('/') ? base : `${base}/`);
  for (const [name, value] of Object.entries(query)) link.searchParams.set(name, value);
  return link.toString();
}
