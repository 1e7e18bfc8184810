import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routeList } from '../../lib/routes';

/**
 * `npm run console:dev` proxies the API's paths to `npm start` (console/vite.config.ts,
 * API_PATHS). A route whose first segment the list lacks would work under `npm start` and 404
 * under the dev server; this reads the list from the config and compares it with the manifest.
 */
describe("the console dev server's proxy", () => {
  it("forwards the first segment of every route's path", () => {
    const config = readFileSync('console/vite.config.ts', 'utf8');
    const list = /const API_PATHS = \[([^\]]*)\]/.exec(config)?.[1] ?? '';
    const proxied = [...list.matchAll(/'([^']+)'/g)].map((match) => match[1]);
    const segments = [...new Set(routeList().map((route) => `/${route.path.split('/')[1] ?? ''}`))];

    expect(proxied.length).toBeGreaterThan(0);
    expect(segments.filter((segment) => !proxied.includes(segment))).toEqual([]);
  });
});
