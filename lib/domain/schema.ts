/**
 * `build()`, at once: how every top-level zod schema of lib/ is written,
 * `export const x = /* @__PURE__ *\/ schema(() => z.object(…))`, so that a function's bundle
 * holds, and its cold start builds, only the schemas the function uses. Why, and the views'
 * classic zod beside the models' zod/mini: docs/architecture.md, "Cold-start conventions".
 */
export function schema<T>(build: () => T): T {
  return build();
}
