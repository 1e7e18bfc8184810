import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP } from '../../../console/headers';
import { startConsole, type ConsoleServer } from './harness';

/**
 * What `npm start` serves under /console: the app's page for every client route, its hashed
 * files for a year, the console's security headers, and nothing outside its build.
 */
let server: ConsoleServer;

beforeAll(async () => {
  server = await startConsole();
});

afterAll(async () => {
  await server?.stop();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${server.origin}${path}`, { redirect: 'manual', ...init });

describe('the console beside the API', () => {
  it('answers every client route with the app’s page, revalidated on each visit, with the security headers', async () => {
    for (const path of ['/console/', '/console/suppliers', '/console/inventory/products/0d1c', '/console/reset-password?token=abc']) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).toContain('<div id="root"></div>');
    }
  });

  it('serves the hashed files for a year, gzipped for a browser that accepts it', async () => {
    const page = await (await get('/console/')).text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(page)?.[1];
    expect(script).toBeDefined();
    const response = await get(script!, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-encoding')).toBe('gzip');
  });

  it('redirects /console to /console/, keeping the query', async () => {
    const response = await get('/console?next=%2Fsuppliers');
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/console/?next=%2Fsuppliers');
  });

  it('serves nothing outside the build: unknown, escaping and malformed names are 404', async () => {
    for (const path of ['/console/assets/nope.js', '/console/assets/..%2F..%2Fpackage.json', '/console/assets/%E0%A4%A']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toBe('No such file in the console.');
    }
  });

  it('takes GET and HEAD only, and leaves every other path to the API', async () => {
    const post = await get('/console/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const api = await get('/auth/me');
    expect(api.status).toBe(401);
    expect(api.headers.get('content-type')).toBe('application/problem+json');
  });
});
