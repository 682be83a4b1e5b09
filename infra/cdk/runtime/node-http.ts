/**
 * Stand-ins for `node:http` and `node:https` inside Lambda bundles (esbuild alias, see
 * infra/cdk/bundling.ts). An ESM import of either costs ~20–30 ms of cold start on Node 24; a
 * `require` of it ~3 ms. middy's util and the AWS SDK's HTTP handler import them. Only the names
 * those imports use are exported: anything else imported from node:http fails the build, so a
 * bundle can never silently get something incomplete.
 */
import { createRequire } from 'node:module';

const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export default http;
export const STATUS_CODES = http.STATUS_CODES;
export const request = http.request;
