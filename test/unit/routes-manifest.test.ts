import { describe, expect, it } from 'vitest';
import * as manifest from '../../lib/routes';
import { routes } from '../../lib/routes';

/** The manifest is assembled from one file per area (lib/routes/<area>.ts) in lib/routes/index.ts. */
describe('the route manifest', () => {
  const declared = Object.entries(manifest).filter(
    ([, value]) => typeof value === 'object' && value !== null && 'method' in value && 'path' in value && 'handler' in value,
  );

  it('lists in `routes` every route an area file declares, under its own name, and nothing else', () => {
    expect(declared.map(([name]) => name).sort()).toEqual(Object.keys(routes).sort());
    for (const [name, route] of declared) expect(routes[name as keyof typeof routes]).toBe(route);
  });
});
