/**
 * `build()`, at once: how every top-level zod schema of lib/ is written,
 * `export const x = /* @__PURE__ *\/ schema(() => z.object(…))`, so that a function's bundle
 * holds, and its cold start builds, only the schemas the function uses.
 *
 * Building a zod schema costs at load (zod's constructors were about 4 ms of a list route's
 * import, 9 ms of the login's, most of them for schemas the function never used), and a
 * function uses few of the schemas of the modules it imports: a handler of one auth route
 * imports lib/auth/schemas.ts, the bodies of every auth route, and the models. esbuild drops a
 * top-level statement nobody uses only when it is free of side effects, which a call is not
 * unless marked `@__PURE__` (zod/mini's `@__NO_SIDE_EFFECTS__` marks count only inside zod's
 * own files). One mark on a call of this function, whose argument is a function expression,
 * covers the whole schema, whatever it calls: a bundle that does not use `x` leaves it out,
 * and with it whatever only `x` used (a model, classic zod).
 *
 * Views. The answers' schemas (`…View`, in each area's schemas.ts) are only read by the
 * tooling, through the handlers' `ROUTE_DOCS:` statements, which the bundles drop. They stay
 * classic zod, built on the models' shapes (`classic.object(model.shape).pick(…)`); the
 * request schemas and the models are zod/mini's. A view written without the mark would bring
 * classic zod back into every bundle of its area (test/infra/bundling.test.ts).
 */
export function schema<T>(build: () => T): T {
  return build();
}
