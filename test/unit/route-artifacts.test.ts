import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromRoot } from '../../infra/paths';
import { routeList, routes } from '../../lib/routes';
import { exampleRequest, FIX_COMMAND, generatedFiles, replaceBetweenMarkers, sampleEvent } from '../../scripts/route-artifacts';
import { routeHandlers } from '../../tools/openapi/handlers';

/**
 * The files derived from the manifest and the handlers' specs (sample events, the route
 * table of docs/routes.md, docs/deploy.md's invoke list) are what `npm run routes` writes now: a route
 * added or changed without running it fails here, and the failure says what to run.
 */
describe('generated route files', () => {
  const files = [...generatedFiles()];

  it.each(files.map(([file, content]) => [file, content] as const))('%s is up to date', (file, content) => {
    const present = existsSync(fromRoot(file)) ? readFileSync(fromRoot(file), 'utf8') : undefined;
    expect(present === content, `${file} is ${present === undefined ? 'missing' : 'stale'}: run \`${FIX_COMMAND}\``).toBe(true);
  });

  it('covers every route with a sample event, plus docs/routes.md and docs/deploy.md', () => {
    expect(files.map(([file]) => file).sort()).toEqual(
      [...routeList().map((route) => `events/${route.handler.split('/').pop()?.replace(/\.ts$/, '.json')}`), 'docs/routes.md', 'docs/deploy.md'].sort(),
    );
  });

  it('builds a route event from the docs example: the concrete path, its parameters, the body as JSON text', () => {
    const event = sampleEvent(routes.updateSupplier, routeHandlers.updateSupplier.docs);
    expect(event).toEqual(
      expect.objectContaining({
        resource: '/suppliers/{id}',
        path: '/suppliers/7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d',
        httpMethod: 'PATCH',
        pathParameters: { id: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d' },
        body: '{"active":false}',
        headers: expect.objectContaining({ 'Content-Type': 'application/json', Origin: 'http://localhost:5173' }),
      }),
    );
  });

  it('refuses an example that leaves a path parameter without a value', () => {
    expect(() => exampleRequest(routes.updateSupplier, { ...routeHandlers.updateSupplier.docs, example: {} })).toThrow(/\{id\}/);
  });

  it('replaces only what stands between the markers, and names a file without them', () => {
    expect(replaceBetweenMarkers('a\n<!-- x:start -->\nold\n<!-- x:end -->\nb', 'x', 'new', 'f.md')).toBe('a\n<!-- x:start -->\nnew\n<!-- x:end -->\nb');
    expect(() => replaceBetweenMarkers('no markers', 'x', 'new', 'f.md')).toThrow(/f\.md has no <!-- x:start -->/);
  });
});
