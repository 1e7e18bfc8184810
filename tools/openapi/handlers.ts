import type { RouteHandler } from '../../lib/http/handler';
import { isDescribed, type DescribedHandler } from '../../lib/http/route-docs';
import { routeList, type RouteId } from '../../lib/routes';

/**
 * Every route's handler module, loaded from the manifest's `handler` path: the document is
 * built from what each handler validates (`handler.input`) and its file's `ROUTE_DOCS:`
 * statement (`handler.docs`), so a new route is
 * described the moment its manifest entry and its file exist. Tooling only: no function
 * imports `tools/openapi`, so the bundles stay as they are.
 */
const loaded = await Promise.all(
  routeList().map(async (route) => {
    const module = (await import(/* @vite-ignore */ `../../${route.handler}`)) as { handler?: RouteHandler };
    if (!module.handler?.input) throw new Error(`openapi: ${route.handler} (route ${route.id}) exports no handler made by httpHandler`);
    if (!isDescribed(module.handler)) throw new Error(`openapi: ${route.handler} (route ${route.id}) has no \`ROUTE_DOCS: describeRoute(handler, { ... })\``);
    return [route.id, module.handler] as const;
  }),
);

export const routeHandlers = Object.fromEntries(loaded) as Record<RouteId, DescribedHandler>;
