/**
 * Stand-in for `source-map` inside Lambda bundles (esbuild alias, see infra/cdk/bundling.ts).
 * Handlebars' code generator only uses it when present, for source maps of compiled templates,
 * which we never produce; without it Handlebars uses its own small stand-in.
 */
export {};
